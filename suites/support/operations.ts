import type { RequirementId } from '../../spec/requirement-ids.ts';
import type { ApiResponse, Auth, KeyHeader } from '../../core/http/client.ts';
import type { ProbeContext } from '../../core/check/check.ts';
import { conform } from '../../core/check/expect.ts';
import type { Operation } from '../../core/document/operations.ts';
import type { SchemaName } from '../../spec/schemas.ts';
import { encodeFileId } from '../../core/document/file-id.ts';
import { internsQuery } from './interns-query.ts';
import { shown } from './values.ts';

export type { KeyHeader };

/** What the cross-cutting checks (auth, errors, general) need to know of each operation. */
export interface OperationProbe {
  operation: Exclude<Operation, 'general'>;
  tag: string;
  /** Sends the operation's plain request (the target's fixture) with the given credential. */
  send(ctx: ProbeContext, auth: Auth): Promise<ApiResponse>;
  /**
   * Sends the same request with query parameters of the operation (a page size, a cursor), or returns
   * undefined when it has none the target file lets the suite name: a rule of the credential holds for
   * every request, not only the bare one.
   */
  sendWithParams(ctx: ProbeContext, auth: Auth): Promise<ApiResponse> | undefined;
  /**
   * Sends, with the valid key, a request the operation refuses for its own input (an error body that
   * is not about authentication), or returns undefined when the target file lacks what it takes.
   */
  sendInvalid(ctx: ProbeContext): Promise<ApiResponse> | undefined;
  /** Section 7 error schema of the operation. */
  errorSchema: SchemaName;
}

export const OPERATION_PROBES: readonly OperationProbe[] = [
  {
    operation: 'listContainerFiles',
    tag: 'files',
    send: ({ api, target }, auth) => api.listContainerFiles(target.containerFiles.containerId, {}, auth),
    // 4.1 after: "any container file id".
    sendWithParams: ({ api, target }, auth) =>
      api.listContainerFiles(target.containerFiles.containerId, { limit: 1, after: encodeFileId('a') }, auth),
    // 4.1 / 8: limit minimum 1 -> 400 of 7.1 ("Invalid request parameters").
    sendInvalid: ({ api, target }) => api.listContainerFiles(target.containerFiles.containerId, { limit: 0 }),
    errorSchema: 'ContainerFilesError',
  },
  {
    operation: 'listModelEndpoints',
    tag: 'models',
    send: ({ api, target }, auth) => api.listModelEndpoints(target.modelEndpoints.model, auth),
    // 4.2 shows no query parameter.
    sendWithParams: () => undefined,
    // 4.2 has no query parameters: the only error of its own input is a model that does not exist
    // (7.2 404), which only the target file can name (data-agnostic).
    sendInvalid: ({ api, target }) =>
      target.modelEndpoints.missingModel ? api.listModelEndpoints(target.modelEndpoints.missingModel) : undefined,
    errorSchema: 'ModelEndpointsError',
  },
  {
    operation: 'listInterns',
    tag: 'interns',
    send: ({ api }, auth) => api.listInterns({}, auth),
    sendWithParams: ({ api, target }, auth) =>
      target.interns.params ? api.listInterns(internsQuery(target, { limit: 1 }), auth) : undefined,
    // 4.3 / 8: page size minimum 1 -> 7.3 invalid_body. The parameter names are not shown (4.3).
    sendInvalid: ({ api, target }) =>
      target.interns.params ? api.listInterns(internsQuery(target, { limit: 0 })) : undefined,
    errorSchema: 'InternsError',
  },
];

export function probeOf(operation: OperationProbe['operation']): OperationProbe {
  const op = OPERATION_PROBES.find((o) => o.operation === operation);
  if (!op) throw new Error(`no operation probe for ${operation}`);
  return op;
}

/**
 * Sends op's plain request with an Authorization value built from the target's API key (5 rules 1-2:
 * the valid key under another scheme, or with no scheme, must still be refused, which only the real
 * key can show). The client builds it, so checks never see the key, and redacts every derived form.
 */
export function sendWithKeyHeader(
  ctx: ProbeContext,
  op: OperationProbe,
  build: (key: string) => KeyHeader,
): Promise<ApiResponse> {
  return op.send(ctx, { fromKey: build });
}

/** The body of an error response parsed as JSON whatever its Content-Type (the media type is general.json-media-type's). */
export function errorBody(res: ApiResponse, requirementId: RequirementId): unknown {
  conform(
    res.jsonError === undefined,
    requirementId,
    `HTTP ${res.status} body is not JSON (${res.jsonError}): ${shown(res.text.slice(0, 80))}`,
    res,
  );
  return res.json;
}

/**
 * The section-7 `error` object of an error response: present, an object, with `code` and a string
 * `message`. Fails requirementId otherwise.
 */
export function errorObject(
  res: ApiResponse,
  requirementId: RequirementId,
): { code: unknown; message: unknown; [k: string]: unknown } {
  const body = errorBody(res, requirementId);
  const error = isObject(body) ? body['error'] : undefined;
  conform(
    isObject(error),
    requirementId,
    `HTTP ${res.status} body has no \`error\` object (section 7): ${shown(res.text.slice(0, 120))}`,
    res,
  );
  conform('code' in error, requirementId, `HTTP ${res.status}: error.code is missing (section 7)`, res);
  conform(
    typeof error['message'] === 'string',
    requirementId,
    `HTTP ${res.status}: error.message is ${shown(error['message'])}, expected a string (section 7)`,
    res,
  );
  return error as { code: unknown; message: unknown };
}

export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Responses that are errors (4xx/5xx) among those given; the rest say nothing of an error body. */
export function errorsAmong(responses: ReadonlyArray<ApiResponse | undefined>): ApiResponse[] {
  return responses.filter((r): r is ApiResponse => r !== undefined && r.status >= 400);
}
