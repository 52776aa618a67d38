/**
 * The one place where response bodies are checked against spec/openapi.yaml.
 *
 * A single Ajv instance holds the whole `components/schemas` section, so every `$ref` resolves
 * against exactly the document the suites cite, and every caller shares one set of compiled
 * validators (compiling per call would both cost time and risk two callers disagreeing).
 *
 * The compiled package carries these validators as code the build wrote (Ajv's standalone code,
 * validators.cjs beside this module: scripts/build-dist.ts), so a run neither loads Ajv nor compiles
 * a schema, which would delay the command's first request. A clone compiles them here on first use;
 * test/standalone-validators.test.ts holds both to the same answers.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { readSpecFile } from './data-file.ts';
import type Ajv2020 from 'ajv/dist/2020.js';
import type { ErrorObject, Options, ValidateFunction } from 'ajv/dist/2020.js';

const require = createRequire(import.meta.url);

/**
 * Component names other modules look schemas up by. Kept as a literal tuple so a rename in the
 * YAML is caught at load time (see below) rather than by a confusing "no schema" at test time.
 */
export const schemaNames = [
  'ContainerFile',
  'ContainerFileList',
  'ModelEndpointsResponse',
  'Model',
  'ModelArchitecture',
  'Endpoint',
  'Pricing',
  'DecimalString',
  'Percentiles',
  'Intern',
  'InternList',
  'InternStatus',
  'Error',
  'ContainerFilesError',
  'ModelEndpointsError',
  'InternsError',
] as const;

export type SchemaName = (typeof schemaNames)[number];

export interface SchemaViolation {
  /** JSON Pointer into the validated value (Ajv's instancePath), e.g. `/data/3/id`; '' is the root. */
  path: string;
  message: string;
  /** The JSON Schema keyword that failed (`required`, `pattern`, `const`, ...). */
  keyword: string;
}

/** `$id` under which the document is registered; `#/components/schemas/X` refs resolve against it. */
const DOCUMENT_ID = 'openapi.json';

export type OpenApiDocument = {
  openapi: string;
  info: { version: string; [key: string]: unknown };
  components: { schemas: Record<string, unknown>; [key: string]: unknown };
  [key: string]: unknown;
};

const specUrl = new URL('../spec/openapi.yaml', import.meta.url);
const document = readSpecFile(specUrl) as OpenApiDocument;

/** The parsed spec/openapi.yaml (shared object: callers must not mutate it). */
export function openApiDocument(): OpenApiDocument {
  return document;
}

/** The instance's options: strict, every violation reported. */
const AJV_OPTIONS: Options = {
  // Strict mode stays on so a typo in the YAML (an unknown keyword, a `required` naming a
  // property that is not defined) fails loudly instead of silently accepting everything — a
  // schema that checks nothing would let faulty servers pass.
  strict: true,
  // Report every violation of a body, not just the first, so one failing test names all the
  // requirements a response breaks.
  allErrors: true,
  // No `allowUnionTypes`: the only union types the document needs are "X or null" (2.2, 2.4, 7),
  // which strict mode already permits; the integer-or-string `error.code` of 7 / 7.3 is spelled
  // with `anyOf` instead.
};

/** An instance holding the document (Ajv is CommonJS: required, so that validators stay synchronous). */
function newAjv(extra: Options = {}): Ajv2020 {
  const Ajv = (require('ajv/dist/2020.js') as { default: typeof Ajv2020 }).default;
  const addFormats = (require('ajv-formats') as { default: (ajv: Ajv2020) => Ajv2020 }).default;
  const ajv = new Ajv({ ...AJV_OPTIONS, ...extra });
  // 2.5 (UUID format, ISO 8601 timestamps) and 4.3 (workspace filter, UUID format) rely on
  // `format`; with strict mode an unknown format would otherwise be a compile error.
  addFormats(ajv);
  // `x-not-shown` marks places where the service document says "not shown" (e.g. 2.3/2.4 field
  // presence, 2.5 non-null types). It is an annotation only: it must never reject a value, because
  // a conformant server may do anything the document leaves open. Declared (not ignored) so that
  // strict mode keeps rejecting every other unknown keyword. The document uses no `example`,
  // `discriminator`, `xml` or `externalDocs` inside schemas, so none of those is declared.
  ajv.addKeyword({ keyword: 'x-not-shown', schemaType: 'boolean' });
  // The component schemas' `$ref`s are written as `#/components/schemas/X` (OpenAPI style), so
  // they must be resolved inside an object shaped like the OpenAPI document. Only the schemas
  // section is registered: paths, info, ... are not JSON Schema. Ajv compiles that wrapper
  // object itself before resolving a pointer into it, so its one non-schema member, `components`,
  // is declared as an inert container (it validates nothing) rather than switching strict mode off.
  ajv.addKeyword({ keyword: 'components', schemaType: 'object' });
  ajv.addSchema({ $id: DOCUMENT_ID, components: { schemas: document.components.schemas } });
  return ajv;
}

/** The run's one instance, made on first need: a compiled package's run never needs it. */
let instance: Ajv2020 | undefined;
function ajv(): Ajv2020 {
  return (instance ??= newAjv());
}

// A misspelt component name is caught at load (cheap).
for (const name of schemaNames) {
  if (!(name in document.components.schemas)) {
    throw new Error(`spec/openapi.yaml: components.schemas.${name} is missing`);
  }
}

/** Where a component's schema is registered in an instance. */
function componentRef(name: SchemaName): string {
  return `${DOCUMENT_ID}#/components/schemas/${name}`;
}

/**
 * The suite's own schemas the build compiles beside the document's (compileOwnSchema's callers:
 * core/target/target.ts, cli/diff.ts), by path from the repository's root.
 */
export const OWN_SCHEMA_FILES = ['core/target/target.schema.json', 'reports/report.schema.json'] as const;

/** The build's validators (scripts/build-dist.ts), by component name and by own schema's `$id`; none in a clone. */
const PRECOMPILED = new URL('./validators.cjs', import.meta.url);
const precompiled: Readonly<Record<string, ValidateFunction | undefined>> = existsSync(PRECOMPILED)
  ? (require(fileURLToPath(PRECOMPILED)) as Record<string, ValidateFunction>)
  : {};

const validators = new Map<SchemaName, ValidateFunction>();

/** The shared compiled validator of a component, compiled once on first use. */
export function validatorFor(name: SchemaName): ValidateFunction {
  const cached = validators.get(name);
  if (cached) return cached;
  if (!schemaNames.includes(name)) throw new Error(`unknown schema ${String(name)}`);
  const validator = precompiled[name] ?? compileComponent(ajv(), name);
  validators.set(name, validator);
  return validator;
}

function compileComponent(on: Ajv2020, name: SchemaName): ValidateFunction {
  // The meta-schema does not descend into the `components` container, so each component is
  // checked against JSON Schema 2020-12 here (throws on e.g. `minimum: "1"`).
  on.validateSchema(document.components.schemas[name] as object, true);
  const validator = on.getSchema(componentRef(name));
  if (!validator) throw new Error(`spec/openapi.yaml: components.schemas.${name} did not compile`);
  return validator;
}

/**
 * The validators as standalone code: a CommonJS module exporting each component's validator by its
 * name and each of `ownSchemas`' by its `$id`, compiled by an instance made as the run's is. The
 * build writes it to dist/spec/validators.cjs.
 */
export function standaloneValidators(ownSchemas: readonly object[]): string {
  const builder = newAjv({ code: { source: true } });
  const refs: Record<string, string> = {};
  for (const name of schemaNames) {
    compileComponent(builder, name);
    refs[name] = componentRef(name);
  }
  for (const schema of ownSchemas) {
    const id = (schema as { $id?: unknown }).$id;
    if (typeof id !== 'string') throw new Error('a schema compiled at build needs an $id to be found by');
    builder.compile(schema);
    refs[id] = id;
  }
  const standaloneCode = (
    require('ajv/dist/standalone') as { default: (ajv: Ajv2020, refs: Record<string, string>) => string }
  ).default;
  return standaloneCode(builder, refs);
}

/** Violations of `value` against component `name`; an empty array means the value conforms. */
export function validate(name: SchemaName, value: unknown): SchemaViolation[] {
  const validator = validatorFor(name);
  if (validator(value)) return [];
  return (validator.errors ?? []).map(toViolation);
}

function toViolation(error: ErrorObject): SchemaViolation {
  return { path: error.instancePath, message: describe(error), keyword: error.keyword };
}

/**
 * Ajv's own messages omit the expected value for `const`/`enum`; a conformance report is read
 * by someone comparing a server's output with the service document, so name it.
 */
function describe(error: ErrorObject): string {
  const message = error.message ?? `failed ${error.keyword}`;
  const params = error.params as Record<string, unknown>;
  if (error.keyword === 'const') return `${message} ${JSON.stringify(params.allowedValue)}`;
  if (error.keyword === 'enum' && Array.isArray(params.allowedValues)) {
    return `${message}: ${params.allowedValues.map((v) => JSON.stringify(v)).join(', ')}`;
  }
  return message;
}

/**
 * Compiles a schema the suite itself owns (e.g. core/target/target.schema.json for the target file),
 * not one from the service document. It goes through the same strict instance so the suite's
 * own schemas are held to the same rules (no undeclared keywords, formats available). Cached by
 * object and by `$id`, because Ajv refuses to register the same `$id` twice and modules may be
 * evaluated more than once under a test runner.
 */
const ownValidators = new WeakMap<object, ValidateFunction>();
export function compileOwnSchema<T>(schema: object): ValidateFunction<T> {
  const cached = ownValidators.get(schema);
  if (cached) return cached as ValidateFunction<T>;
  const id = (schema as { $id?: unknown }).$id;
  const validator = (typeof id === 'string' && (precompiled[id] ?? ajv().getSchema(id))) || ajv().compile(schema);
  ownValidators.set(schema, validator);
  return validator as ValidateFunction<T>;
}
