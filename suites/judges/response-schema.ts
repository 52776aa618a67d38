import type { RequirementId } from '../../spec/requirement-ids.ts';
/**
 * Every response against the schema of its operation and status (spec/openapi.yaml through the one
 * ajv instance of spec/schemas.ts), whichever check sent it, as Schemathesis feeds every response to
 * its response checks. Each violation is attributed to the precise requirement it breaks, with the
 * record position when it sits inside a record, and reported once per distinct violation.
 *
 * Only what the document states is judged:
 * - 200 bodies (4.1 2.2, 4.2 2.3, 4.3 2.6), and error bodies only for the statuses each operation
 *   lists (7.1: 400 401 403 429 500 503; 7.2: 403 404 500; 4.3 / 7.3: 400-type, 401, 403, 404-type,
 *   408, 500-type, read as 400 401 403 404 408 500). Any other status has no schema here.
 * - The components never forbid extra fields and accept null only where the document shows it; the
 *   places 2.3 / 2.4 / 2.5 leave open are open in spec/openapi.yaml (no `required`, no type).
 * - A rule with a requirement of its own (a record rule: ids, timestamps, pricing...) is left to that
 *   rule (the owned* predicates), so one broken field is one failure, of the right requirement.
 */
import type { ProbeContext } from '../../core/check/check.ts';
import type { ApiResponse } from '../../core/http/client.ts';
import { requirement } from '../../core/document/catalogue.ts';
import { conform } from '../../core/check/expect.ts';
import type { Finding, ResponseJudge, SeenResponse } from '../../core/check/judge.ts';
import { validate, type SchemaName, type SchemaViolation } from '../../spec/schemas.ts';
import { ownedInIntern } from '../support/interns.ts';
import { ownedInEndpoint, ownedInModel } from '../support/model-endpoints.ts';
import { isObject, shown } from '../support/values.ts';
import { foundAt } from './record-label.ts';
import { ownedInFile } from './container-file-records.ts';

type ApiOperation = SeenResponse['operation'];

/** One schema violation, attributed. */
export interface SchemaFinding {
  requirementId: RequirementId;
  /** The component the violation was found against (for the message). */
  schema: SchemaName;
  /** JSON Pointer into the body, e.g. `/data/3/source`. */
  pointer: string;
  keyword: string;
  message: string;
  /** Position of the record (`data[i]`, `endpoints[i]`) the violation sits in, when it does. */
  position?: number;
}

/** 4.1 "Error responses: 400, 401, 403, 429, 500, 503" (7.1). */
const FILES_ERRORS = [400, 401, 403, 429, 500, 503];
/** 4.2 "Error responses: 403, 404, 500" (7.2; other statuses not shown). */
const MODELS_ERRORS = [403, 404, 500];
/** 4.3 "400-type invalid query, 401, 403, 404-type not found, 408, 500-type internal". */
const INTERNS_ERRORS = [400, 401, 403, 404, 408, 500];

/** The component a response of `operation` with `status` must match, or undefined when the document states none. */
export function documentedSchema(operation: ApiOperation, status: number): SchemaName | undefined {
  switch (operation) {
    case 'listContainerFiles':
      return status === 200 ? 'ContainerFileList' : FILES_ERRORS.includes(status) ? 'ContainerFilesError' : undefined;
    case 'listModelEndpoints':
      // 7 "integer, or string on some operations": the integer code of 7.2 is a SHOULD of its own
      // (models.errors.code-integer), so the body is held to the section 7 shape here.
      return status === 200 ? 'ModelEndpointsResponse' : MODELS_ERRORS.includes(status) ? 'Error' : undefined;
    case 'listInterns':
      return status === 200 ? 'InternList' : INTERNS_ERRORS.includes(status) ? 'InternsError' : undefined;
  }
}

/** 2.5: the four fields whose note says "Null is a possible value". */
const NULLABLE_INTERN_FIELDS: ReadonlySet<string> = new Set([
  'attached_vault_id',
  'instructions',
  'lastFailureMessage',
  'progress',
]);

/** The property a `required` violation names (Ajv: "must have required property 'x'"). */
function missingProperty(v: SchemaViolation): string | undefined {
  return /required property '([^']*)'/.exec(v.message)?.[1];
}

/** Requirement of the error-body shape of each operation (7.1, 7.2, 7.3). */
const ERRORS_SHAPE: Record<ApiOperation, RequirementId> = {
  listContainerFiles: 'files.errors.shape',
  listModelEndpoints: 'models.errors.shape',
  listInterns: 'interns.errors.shape',
};

/** A violation inside the record at `/prefix/<i>`, with the path relative to the record. */
function inRecord(v: SchemaViolation, prefix: string): { position: number; relative: SchemaViolation } | undefined {
  const m = new RegExp(`^${prefix}/(\\d+)(/.*)?$`).exec(v.path);
  return m ? { position: Number(m[1]), relative: { ...v, path: m[2] ?? '' } } : undefined;
}

interface Attribution {
  requirementId: RequirementId;
  position?: number;
}

/**
 * No page holds more than 1000 records (4.1, 8; interns 500): the schema is judged on the first
 * MAX_JUDGED_RECORDS of `data` (and of the model's `endpoints`), so a page of a million broken
 * records costs what a page of a thousand does (rule "Hostile input"); its size is the page judges' to fail.
 */
export const MAX_JUDGED_RECORDS = 1_001;

function boundedRecords(body: unknown): unknown {
  if (!isObject(body)) return body;
  const data = body.data;
  if (Array.isArray(data))
    return data.length > MAX_JUDGED_RECORDS ? { ...body, data: data.slice(0, MAX_JUDGED_RECORDS) } : body;
  if (isObject(data) && Array.isArray(data.endpoints) && data.endpoints.length > MAX_JUDGED_RECORDS) {
    return { ...body, data: { ...data, endpoints: data.endpoints.slice(0, MAX_JUDGED_RECORDS) } };
  }
  return body;
}

/** Which requirement a violation of a 200 body breaks; undefined when a rule of its own owns it. */
function attribute200(operation: ApiOperation, v: SchemaViolation): Attribution | undefined {
  if (operation === 'listContainerFiles') {
    // A violation inside data[n] is the file's (2.1), any other the list's (2.2).
    const r = inRecord(v, '/data');
    if (!r) return { requirementId: 'files.list.schema' };
    return ownedInFile(r.relative) ? undefined : { requirementId: 'files.file.schema', position: r.position };
  }
  if (operation === 'listInterns') {
    const r = inRecord(v, '/data');
    if (!r) return { requirementId: 'interns.list.schema' };
    if (ownedInIntern(r.relative)) return undefined;
    // 2.5 lists the intern's fields; a field that is never null is there (interns.intern.fields-present,
    // MUST). One that "Null is a possible value" may be left out as null (reading interns-omit-null-fields):
    // its absence is interns.intern.schema's (SHOULD). A field of the wrong type is interns.intern.field-types'.
    if (r.relative.keyword === 'required' && r.relative.path === '') {
      return {
        requirementId: NULLABLE_INTERN_FIELDS.has(missingProperty(r.relative) ?? '')
          ? 'interns.intern.schema'
          : 'interns.intern.fields-present',
        position: r.position,
      };
    }
    return { requirementId: 'interns.intern.field-types', position: r.position };
  }
  // 4.2: "an object with one field data, a model with endpoints (2.3)": the wrapper, the model, the endpoints.
  // A field of 2.3 missing from the model or its architecture is models.model.fields-present's.
  if (v.keyword === 'required' && (v.path === '/data' || v.path === '/data/architecture'))
    return { requirementId: 'models.model.fields-present' };
  if (v.path === '' || v.path === '/data') return { requirementId: 'models.response.data-wrapper' };
  const e = inRecord(v, '/data/endpoints');
  if (e)
    return ownedInEndpoint(e.relative) ? undefined : { requirementId: 'models.endpoint.schema', position: e.position };
  return ownedInModel({ ...v, path: v.path.slice('/data'.length) })
    ? undefined
    : { requirementId: 'models.model.schema' };
}

/** Which requirement a violation of a section 7 error body breaks. */
function attributeError(operation: ApiOperation, v: SchemaViolation): Attribution {
  // The optional members of section 7 (metadata, service_metadata, user_id: object/string or null) are general.errors.shape's.
  if (/^\/(error\/metadata|service_metadata|user_id)(\/|$)/.test(v.path))
    return { requirementId: 'general.errors.shape' };
  return { requirementId: ERRORS_SHAPE[operation] };
}

/**
 * One violation per value that matches none of the alternatives of an anyOf / oneOf (Ajv reports each
 * branch's error and then the anyOf itself, all at the same pointer): one broken value is one violation,
 * its message naming what each branch wanted ("must be integer or must be equal to one of ...").
 */
function collapseAlternatives(violations: readonly SchemaViolation[]): SchemaViolation[] {
  const alternatives = new Set(
    violations.filter((v) => v.keyword === 'anyOf' || v.keyword === 'oneOf').map((v) => v.path),
  );
  const out: SchemaViolation[] = [];
  for (const path of alternatives) {
    const branches = violations.filter((v) => v.path === path && v.keyword !== 'anyOf' && v.keyword !== 'oneOf');
    out.push({
      path,
      keyword: 'anyOf',
      message: [...new Set(branches.map((v) => v.message))].join(' or ') || 'must match a schema in anyOf',
    });
  }
  return [...violations.filter((v) => !alternatives.has(v.path)), ...out];
}

/**
 * Violations of a response body against its documented schema, attributed; [] when the body conforms
 * or the status has no documented schema. Violations of the whole body come before those of records.
 */
export function responseSchemaViolations(operation: ApiOperation, status: number, body: unknown): SchemaFinding[] {
  const schema = documentedSchema(operation, status);
  if (!schema) return [];
  const out: SchemaFinding[] = [];
  for (const v of collapseAlternatives(validate(schema, status === 200 ? boundedRecords(body) : body))) {
    const a = status === 200 ? attribute200(operation, v) : attributeError(operation, v);
    if (a)
      out.push({
        requirementId: a.requirementId,
        schema,
        pointer: v.path,
        keyword: v.keyword,
        message: v.message,
        ...(a.position !== undefined ? { position: a.position } : {}),
      });
  }
  // 7.2 / 7: a string error.code where the body otherwise has the section 7 shape is the SHOULD of 7.2.
  if (operation === 'listModelEndpoints' && status !== 200 && out.length === 0) {
    const error = isObject(body) ? body.error : undefined;
    if (isObject(error) && typeof error.code === 'string') {
      out.push({
        requirementId: 'models.errors.code-integer',
        schema: 'ModelEndpointsError',
        pointer: '/error/code',
        keyword: 'type',
        message: `is the string ${shown(error.code)}, expected an integer (7.2)`,
      });
    }
  }
  return out.sort((a, b) => (a.position ?? -1) - (b.position ?? -1));
}

/**
 * The first requirement broken and its violations (at most 5 named), worded as expectSchema words
 * them: what a check that judges one response throws, so its message reads like the judge's.
 */
export function firstSchemaFailure(
  found: readonly SchemaFinding[],
): { requirementId: RequirementId; message: string } | undefined {
  const first = found[0];
  if (!first) return undefined;
  const same = found.filter((f) => f.requirementId === first.requirementId);
  const list = same
    .slice(0, 5)
    .map((f) => `${f.pointer || '/'} ${f.message}`)
    .join('; ');
  const more = same.length > 5 ? ` (+${same.length - 5} more)` : '';
  return { requirementId: first.requirementId, message: `does not match ${first.schema}: ${list}${more}` };
}

/**
 * For a check that judges one response it fetched: fails with the first MUST requirement its body
 * breaks. A violation of a SHOULD (an intern without a nullable field, reading interns-omit-null-fields)
 * does not end the check: the response judge fails that requirement on this very response, and the
 * check goes on to judge its MUST requirements, which would otherwise be left "not reached".
 */
export function conformToSchema(ctx: Pick<ProbeContext, 'conform'>, operation: ApiOperation, res: ApiResponse): void {
  const failure = firstSchemaFailure(
    responseSchemaViolations(operation, res.status, res.json).filter(
      (f) => requirement(f.requirementId).level === 'MUST',
    ),
  );
  if (failure) ctx.conform(false, failure.requirementId, failure.message, res);
}

/**
 * For a check that demands an error body of its operation: fails the operation's shape (files.errors.shape...) on
 * the first violation that is the operation's. A violation of the optional members of section 7
 * (metadata, service_metadata, user_id) is general.errors.shape's, which the response judge fails on
 * every error body: blaming the operation's shape for it would name a rule that holds.
 */
export function expectErrorShape(operation: ApiOperation, res: ApiResponse, body: unknown = res.json): void {
  const failure = firstSchemaFailure(
    responseSchemaViolations(operation, res.status, body).filter((f) => f.requirementId === ERRORS_SHAPE[operation]),
  );
  conform(failure === undefined, ERRORS_SHAPE[operation], failure?.message ?? '', res);
}

/** The pointer with record indices replaced by `*`: the same violation in another record is the same violation. */
const shapeOf = (pointer: string) => pointer.replace(/\/\d+(?=\/|$)/g, '/*');

/** Every response of the run whose status has a documented schema; unparsed bodies are the JSON judge's. */
export const responseSchemaJudge: ResponseJudge = {
  id: 'responses.schema',
  requirements: [
    'files.list.schema',
    'files.file.schema',
    'files.errors.shape',
    'models.response.data-wrapper',
    'models.model.schema',
    'models.model.fields-present',
    'models.endpoint.schema',
    'models.errors.shape',
    'models.errors.code-integer',
    'interns.list.schema',
    'interns.intern.field-types',
    'interns.intern.fields-present',
    'interns.intern.schema',
    'interns.errors.shape',
    'general.errors.shape',
  ],
  judge(response): Finding[] {
    if (response.json === undefined) return [];
    return responseSchemaViolations(response.operation, response.status, response.json).map((f) => ({
      requirementId: f.requirementId,
      message: `HTTP ${response.status} does not match ${f.schema}: ${f.pointer || '/'} ${f.message}${foundAt(response.json, f.pointer)}`,
      exchange: response.exchange,
      ...(f.position !== undefined ? { position: f.position } : {}),
      dedupeKey: `${f.requirementId}:${response.operation}:${response.status}:${shapeOf(f.pointer)}:${f.keyword}`,
    }));
  },
};
