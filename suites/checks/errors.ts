import type { ApiResponse } from '../../core/http/client.ts';
import { defineChecks, type ProbeContext } from '../../core/check/check.ts';
import { firstThrown, settleInFlight } from '../../core/http/in-flight.ts';
import type { RequestLogEntry } from '../../core/http/request-log.ts';
import type { TargetView } from '../../core/target/target.ts';
import { internsQuery, needsInternsParams } from '../support/interns-query.ts';
import { errorObject, errorsAmong, isObject, probeOf } from '../support/operations.ts';
import { errorCodeViolation } from '../judges/error-codes.ts';
import { shown } from '../support/values.ts';

const files = probeOf('listContainerFiles');
const models = probeOf('listModelEndpoints');
const interns = probeOf('listInterns');

/** 4.1 "Error responses: 400, 401, 403, 429, 500, 503" (the rows of 7.1). */
const FILES_DOCUMENTED = [400, 401, 403, 429, 500, 503] as const;
/** 7.2: the statuses shown for the model-endpoints operation. */
const MODELS_SHOWN = [403, 404, 500] as const;
/** 7.3: the integer codes and the string codes of list interns. */
const INTERNS_INT_CODES = [401, 403, 408] as const;
const INTERNS_STRING_CODES = ['invalid_body', 'not_found', 'internal_error'] as const;

/**
 * Two errors of listContainerFiles every deployment gives: a limit below the minimum (4.1: minimum 1 ->
 * 7.1 400) and no credential (5 rule 2 -> 401). Only the responses that are errors are returned: a
 * 200 to limit=0 is files.limit.out-of-range-rejected's failure, not a body to judge here.
 */
async function filesErrors(ctx: ProbeContext): Promise<ApiResponse[]> {
  return errorsAmong([await files.sendInvalid(ctx), await files.send(ctx, 'none')]);
}

/** Errors of the model-endpoints operation: the target's missing model (7.2 404) when named, and no credential. */
async function modelsErrors(ctx: ProbeContext): Promise<ApiResponse[]> {
  return errorsAmong([await models.sendInvalid(ctx), await models.send(ctx, 'none')]);
}

/**
 * files.errors.documented-status's own provocations, sent together: bad limit, no key, a valid key that
 * may lack permission (5 rule 3) and a container id no deployment has (4.1's list is the operation's
 * whole list, unlike 7.2's "other than these: not shown": an unknown container is listed empty or
 * refused with one of them).
 */
async function provokedFileErrors(ctx: ProbeContext): Promise<Array<ApiResponse | undefined>> {
  const sends: Array<() => Promise<ApiResponse | undefined> | undefined> = [
    () => files.sendInvalid(ctx),
    () => files.send(ctx, 'none'),
    () => (ctx.target.hasRestrictedKey ? files.send(ctx, 'restricted') : Promise.resolve(undefined)),
    () => ctx.api.listContainerFiles(`conformance-suite-no-such-container-${ctx.seed.toString(16)}`, { limit: 1 }),
  ];
  const sent = await settleInFlight(sends, sends.length, async (send) => send());
  firstThrown(sent);
  return sent.map((s) => (s?.ok ? s.value : undefined));
}

/** Nothing to judge: a skip with the reason, never a pass that looks like evidence. */
function requireSome<T>(ctx: ProbeContext, list: readonly T[], what: string): void {
  if (list.length === 0) ctx.skip(`no ${what} was provoked, so there is nothing to judge`);
}

/** Request-log entries of one operation's path under the target's base URL (any check of this run). */
function loggedErrors(ctx: ProbeContext, pathPattern: RegExp): RequestLogEntry[] {
  const base = basePath(ctx.target);
  return ctx.log.filter((e) => {
    if (e.status === null || e.status < 400) return false;
    let path: string;
    try {
      path = new URL(e.url).pathname;
    } catch {
      return false;
    }
    return path.startsWith(`${base}/`) && pathPattern.test(path.slice(base.length));
  });
}

function basePath(target: TargetView): string {
  return new URL(target.baseUrl).pathname.replace(/\/+$/, '');
}

const FILES_PATH = /^\/containers\/[^/]+\/files$/;
const MODELS_PATH = /^\/models\/[^/]+\/[^/]+\/endpoints$/;

export const errorsChecks = defineChecks([
  // ------------------------------------------------------------------ 7.1 listContainerFiles
  {
    id: 'files.errors.shape',
    title: 'listContainerFiles error bodies have an error object with an integer code and a string message',
    operation: 'listContainerFiles',
    requirements: ['files.errors.shape'],
    async probe(ctx: ProbeContext) {
      const errors = await filesErrors(ctx);
      requireSome(ctx, errors, 'error response of listContainerFiles');
      for (const res of errors) {
        const { code } = errorObject(res, 'files.errors.shape');
        // 7 "integer, or string on some operations"; 7.1's code equals the HTTP status, an integer.
        ctx.conform(
          Number.isInteger(code),
          ctx.requirement,
          `HTTP ${res.status}: error.code is ${shown(code)}, expected an integer (7.1)`,
          res,
        );
      }
    },
  },
  {
    id: 'files.errors.code-equals-status',
    title: 'listContainerFiles error bodies carry error.code equal to the HTTP status (400 and 401)',
    operation: 'listContainerFiles',
    requirements: ['files.errors.code-equals-status'],
    async probe(ctx: ProbeContext) {
      // 7.1: "In these bodies error.code equals the HTTP status." Only the value is judged here: a
      // code of the wrong type, or no code at all, is files.errors.shape's failure.
      const judged = (await filesErrors(ctx)).filter((res) => {
        const error = isObject(res.json) ? res.json['error'] : undefined;
        return isObject(error) && (typeof error['code'] === 'number' || typeof error['code'] === 'string');
      });
      requireSome(ctx, judged, 'listContainerFiles error body with an error.code');
      for (const res of judged) {
        const code = (res.json as { error: { code: number | string } }).error.code;
        ctx.conform(
          Number(code) === res.status,
          ctx.requirement,
          `HTTP ${res.status} carries error.code ${shown(code)}; 7.1: error.code equals the HTTP status`,
          res,
        );
      }
    },
  },
  {
    id: 'files.errors.documented-status',
    title: 'Every listContainerFiles error of the run has a status of 4.1 (400, 401, 403, 429, 500, 503)',
    operation: 'listContainerFiles',
    requirements: ['files.errors.documented-status'],
    wholeRun: true,
    // Sent beside the other checks; asked again by the probe, the run's memory answers.
    gather: async (ctx) => void (await provokedFileErrors(ctx)),
    async probe(ctx: ProbeContext) {
      for (const res of errorsAmong(await provokedFileErrors(ctx))) {
        ctx.conform(
          (FILES_DOCUMENTED as readonly number[]).includes(res.status),
          ctx.requirement,
          `listContainerFiles answered ${res.status}; 4.1 documents ${FILES_DOCUMENTED.join(', ')}`,
          res,
        );
      }
      // Every other listContainerFiles error this run has seen so far (the request log is shared by
      // the whole run; a 429/503 that was retried is in it too and is documented).
      // In URL order: the log's order is the order checks in flight together happened to send in.
      const undocumented = loggedErrors(ctx, FILES_PATH)
        .filter((e) => !(FILES_DOCUMENTED as readonly number[]).includes(e.status!))
        .sort((a, b) => (a.url < b.url ? -1 : a.url > b.url ? 1 : a.check < b.check ? -1 : a.check > b.check ? 1 : 0));
      const first = undocumented[0];
      ctx.conform(
        first === undefined,
        ctx.requirement,
        `${undocumented.length} listContainerFiles response(s) of this run have an undocumented status, first ${first?.status} to GET ${ctx.api.mask.text(first?.url ?? '')} (check ${first?.check}); 4.1 documents ${FILES_DOCUMENTED.join(', ')}`,
      );
    },
  },
  {
    id: 'files.errors.service-metadata',
    title: 'listContainerFiles error bodies carry service_metadata and user_id',
    operation: 'listContainerFiles',
    requirements: ['files.errors.service-metadata'],
    async probe(ctx: ProbeContext) {
      // 7: service_metadata and user_id are "present on the container-files errors" (read as SHOULD
      // since the same table says "Required: no"). Presence only: their types are general.errors.shape's.
      const judged = (await filesErrors(ctx)).filter((res) => isObject(res.json));
      requireSome(ctx, judged, 'listContainerFiles error body that is a JSON object');
      for (const res of judged) {
        const body = res.json as Record<string, unknown>;
        const missing = ['service_metadata', 'user_id'].filter((k) => !(k in body));
        ctx.conform(
          missing.length === 0,
          ctx.requirement,
          `HTTP ${res.status} body has no ${missing.join(' and ')} (section 7: present on the container-files errors)`,
          res,
        );
      }
    },
  },
  // ------------------------------------------------------------------ 7.2 list endpoints of a model
  {
    id: 'models.errors.shape',
    title: 'Model-endpoints error bodies (404, 401) have an error object with a code and a string message',
    operation: 'listModelEndpoints',
    requirements: ['models.errors.shape'],
    async probe(ctx: ProbeContext) {
      const errors = await modelsErrors(ctx);
      requireSome(ctx, errors, 'error response of the model-endpoints operation');
      for (const res of errors) {
        const { code } = errorObject(res, 'models.errors.shape');
        // 7: code is "integer, or string on some operations"; whether a string is allowed here is
        // models.errors.code-integer's (SHOULD) question, so any integer or string passes this MUST.
        ctx.conform(
          Number.isInteger(code) || typeof code === 'string',
          ctx.requirement,
          `HTTP ${res.status}: error.code is ${shown(code)}, expected an integer or a string (7)`,
          res,
        );
      }
    },
  },
  {
    id: 'models.errors.code-integer',
    title: 'Model-endpoints error bodies carry an integer error.code',
    operation: 'listModelEndpoints',
    requirements: ['models.errors.code-integer'],
    async probe(ctx: ProbeContext) {
      // 7: string codes are for "some operations"; 7.3 is where the document shows them, 7.2 does not.
      const judged = (await modelsErrors(ctx)).filter(
        (res) => isObject(res.json) && isObject(res.json['error']) && 'code' in res.json['error'],
      );
      requireSome(ctx, judged, 'model-endpoints error body with an error.code');
      for (const res of judged) {
        const code = (res.json as { error: { code: unknown } }).error.code;
        ctx.conform(
          Number.isInteger(code),
          ctx.requirement,
          `HTTP ${res.status}: error.code is ${shown(code)}, expected an integer (string codes are shown only in 7.3)`,
          res,
        );
      }
    },
  },
  {
    id: 'models.errors.other-statuses',
    title: 'Model-endpoints error statuses other than 403, 404 and 500 seen in this run (not shown)',
    operation: 'listModelEndpoints',
    requirements: ['models.errors.other-statuses'],
    wholeRun: true,
    kind: 'observation',
    gather: async (ctx) => void (await modelsErrors(ctx)),
    async probe(ctx: ProbeContext) {
      // 7.2: "Statuses for this operation other than these: not shown." The run's request log holds
      // every model-endpoints request sent so far (401s of section 5 among them).
      await modelsErrors(ctx);
      const seen: Record<string, number> = {};
      for (const e of loggedErrors(ctx, MODELS_PATH)) {
        if ((MODELS_SHOWN as readonly number[]).includes(e.status!)) continue;
        seen[String(e.status)] = (seen[String(e.status)] ?? 0) + 1;
      }
      ctx.observe('models.errors.other-statuses', Object.keys(seen).length ? seen : 'none');
    },
  },
  // ------------------------------------------------------------------ 7.3 list interns
  {
    id: 'interns.errors.shape',
    title:
      'Interns error bodies (invalid page size, no key) carry a 7.3 code and a string message, an integer code as their status',
    operation: 'listInterns',
    requirements: ['interns.errors.shape', 'interns.errors.code-equals-status'],
    needs: needsInternsParams,
    async probe(ctx: ProbeContext) {
      // 4.3 / 8: page size minimum 1 -> 7.3 "Query parameters invalid"; 5 rule 4 -> 401.
      const errors = errorsAmong([await interns.sendInvalid(ctx), await interns.send(ctx, 'none')]);
      requireSome(ctx, errors, 'error response of list interns');
      for (const res of errors) {
        const { code } = errorObject(res, 'interns.errors.shape');
        const ok =
          (INTERNS_INT_CODES as readonly unknown[]).includes(code) ||
          (INTERNS_STRING_CODES as readonly unknown[]).includes(code);
        ctx.conform(
          ok,
          ctx.requirement,
          `HTTP ${res.status}: error.code is ${shown(code)}; 7.3 shows the integers ${INTERNS_INT_CODES.join(', ')} and the strings ${INTERNS_STRING_CODES.join(', ')}`,
          res,
        );
        const broken = errorCodeViolation('listInterns', res.status, code);
        if (broken) ctx.conform(false, broken.requirementId, broken.message, res);
      }
    },
  },
  {
    id: 'interns.errors.string-code-status',
    title: 'HTTP status of the interns invalid_body error (not shown)',
    operation: 'listInterns',
    requirements: ['interns.errors.string-code-status'],
    kind: 'observation',
    needs: needsInternsParams,
    async probe(ctx: ProbeContext) {
      // 7.3: "HTTP status for the bodies whose code is a string: not shown."
      const res = await ctx.api.listInterns(internsQuery(ctx.target, { limit: 0 }));
      const error = isObject(res.json) ? res.json['error'] : undefined;
      ctx.observe('interns.errors.string-code-status', {
        request: 'invalid page size (0)',
        status: res.status,
        code: isObject(error) ? (error['code'] ?? null) : null,
      });
    },
  },
]);
