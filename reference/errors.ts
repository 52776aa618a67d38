import type { Operation } from './operations.ts';
import { hasFault } from './faults/index.ts';
import { hasReading } from './variants.ts';
import type { ReferenceOptions } from './options.ts';

/** What a route hands back; server.ts serialises it with options.contentType. */
export interface JsonResponse {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
  /** Sent as is instead of JSON.stringify(body) (fault errors-html-body only). */
  raw?: string | Buffer;
}

/** 7.1 example messages, one per documented status of listContainerFiles. */
export const FILES_MESSAGES = {
  400: 'Invalid request parameters',
  401: 'Missing Authentication header',
  403: 'Only management keys can perform this operation',
  429: 'Rate limit exceeded',
  500: 'Internal Server Error',
  503: 'Service temporarily unavailable',
} as const;
export type FilesErrorStatus = keyof typeof FILES_MESSAGES;

/** 7 + 7.1: `error.code` equals the HTTP status; metadata, service_metadata and user_id are present (null). */
export function filesError(status: FilesErrorStatus): JsonResponse {
  return {
    status,
    body: {
      error: { code: status, message: FILES_MESSAGES[status], metadata: null },
      service_metadata: null,
      user_id: null,
    },
  };
}

/**
 * 7.2 example messages. 401 is not in the 7.2 table but section 5 rule 2 requires it for every
 * operation; the reference reuses the 7.1 wording for it.
 */
export const MODELS_MESSAGES = {
  401: 'Missing Authentication header',
  403: 'Only management keys can perform this operation',
  404: 'Resource not found',
  500: 'Internal Server Error',
} as const;
export type ModelsErrorStatus = keyof typeof MODELS_MESSAGES;

/** 7.2: `{error:{code:<int>, message}}` (metadata is optional and left out). */
export function modelsError(status: ModelsErrorStatus): JsonResponse {
  return { status, body: { error: { code: status, message: MODELS_MESSAGES[status] } } };
}

/** Reading models-error-string-codes: the string a model-endpoints error carries as its code instead of its status. */
const MODELS_STRING_CODES: Readonly<Record<number, string>> = {
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  500: 'internal_error',
};

/**
 * Reading models-error-string-codes: section 7 allows "integer, or string on some operations" and 7.2
 * ties no code to a status, so every model-endpoints error may carry a string code.
 */
export function withModelsCodes(opts: ReferenceOptions, r: JsonResponse): JsonResponse {
  const body = r.body as { error?: { code?: unknown } } | null;
  const code = MODELS_STRING_CODES[r.status];
  if (!hasReading(opts, 'models-error-string-codes') || !code || typeof body?.error?.code !== 'number') return r;
  return { ...r, body: { ...body, error: { ...body.error, code } } };
}

/** 7.3 rows: integer codes are also the HTTP status; string codes use options.stringErrorStatus (status not shown). */
export const INTERNS_ERRORS = {
  invalid_body: 'Invalid list query',
  401: 'Invalid or missing API key',
  403: 'Forbidden',
  not_found: 'Intern not found',
  408: 'Request timed out',
  internal_error: 'The request could not be completed',
} as const;
export type InternsErrorCode = keyof typeof INTERNS_ERRORS;

export function internsError(code: InternsErrorCode, opts: ReferenceOptions): JsonResponse {
  const status = typeof code === 'number' ? code : opts.stringErrorStatus[code];
  return { status, body: { error: { code, message: INTERNS_ERRORS[code] } } };
}

/** Any path outside the three documented ones (section 4): 404 in the 7.x shape. */
export function routeNotFound(): JsonResponse {
  return { status: 404, body: { error: { code: 404, message: 'Resource not found' } } };
}

/** Section 4: all three operations are GET; another method on a documented path gets 405 + Allow. */
export function methodNotAllowed(): JsonResponse {
  return { status: 405, body: { error: { code: 405, message: 'Method not allowed' } }, headers: { allow: 'GET' } };
}

/**
 * Error-body faults of reference/faults/auth-errors.ts, applied by server.ts to what a route answered
 * (parameter validation and not-found; the 401/403 bodies are chosen in server.ts itself).
 */
export function withErrorFaults(opts: ReferenceOptions, op: Operation, r: JsonResponse): JsonResponse {
  const files400 = op === 'listContainerFiles' && r.status === 400;
  if (op === 'listModelEndpoints' && r.status >= 400) r = withModelsCodes(opts, r);
  const models404 = op === 'listModelEndpoints' && r.status === 404;
  const body = r.body as { error: { code: unknown; message: string }; [k: string]: unknown };
  const recoded = (code: unknown): JsonResponse => ({ ...r, body: { ...body, error: { ...body.error, code } } });
  if (hasFault(opts, 'errors-files-string-code') && files400) return recoded('400');
  if (hasFault(opts, 'errors-files-code-mismatch') && files400) return recoded(422);
  if (hasFault(opts, 'errors-files-no-service-metadata') && files400) return { ...r, body: { error: body.error } };
  if (hasFault(opts, 'errors-user-id-number') && files400) return { ...r, body: { ...body, user_id: 42 } };
  if (hasFault(opts, 'errors-flat-body') && models404) return { ...r, body: body.error };
  if (hasFault(opts, 'errors-models-string-code') && models404) return recoded('not_found');
  if (hasFault(opts, 'errors-html-body') && models404) {
    const raw = '<!DOCTYPE html><html><head><title>404 Not Found</title></head><body><h1>Not Found</h1></body></html>';
    return { status: 404, body: null, raw, headers: { 'content-type': 'text/html; charset=utf-8' } };
  }
  return r;
}
