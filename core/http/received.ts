import type { Exchange } from '../check/evidence.ts';
import type { SeenResponse } from '../check/judge.ts';
import type { Target } from '../target/target.ts';
import type { TextMemo } from '../text/text-memo.ts';
import type { Answer } from './answer-memory.ts';
import type { ApiResponse } from './api-response.ts';
import { decodeJsonBody, firstDuplicateKey, type DecodedJsonBody } from './json-body.ts';
import type { RawResponse } from './transport.ts';

/** A received body and headers as the run reads them. */
export interface Read {
  status: number;
  headers: Record<string, string>;
  body: DecodedJsonBody;
}

/**
 * The body read as strict UTF-8 (RFC 8259 8.1) and parsed, and the headers, exactly as the target sent
 * them: the checks and judges read what the target said ("Judge every response"), so a key that is also
 * a word of its bodies (`data`) changes no verdict. What is written for a person is masked where it
 * becomes evidence or output (exchange.ts, core/run/execute-check.ts), never before it is judged.
 */
export function readResponse(raw: RawResponse, duplicateKeys: TextMemo<string | undefined>): Read {
  const body = decodeJsonBody(raw.body, (t) => duplicateKeys.of(t, firstDuplicateKey));
  return { status: raw.status, headers: raw.headers, body };
}

/** Who asked and how: what a response is judged with besides its bytes. */
export interface Asked {
  op: Pick<SeenResponse, 'operation' | 'pathParams'>;
  check: string;
  url: URL;
  auth: 'key' | 'restricted' | 'none' | 'other';
  baseUrl: string;
}

/** The response a check receives and the one the run's judges see, from what was read. */
export function answerOf(read: Read, exchange: Exchange, asked: Asked, target: Target): Answer {
  const { body, status } = read;
  const text = body.text;
  const response: ApiResponse = {
    status,
    headers: read.headers,
    text,
    // Frozen (decodeJsonBody): the run's memory gives the same parsed body to every check that asks again.
    json: body.json,
    exchange,
    ...(body.jsonError !== undefined ? { jsonError: body.jsonError } : {}),
    ...(body.invalidUtf8Offset !== undefined ? { invalidUtf8Offset: body.invalidUtf8Offset } : {}),
    ...(body.duplicateKey !== undefined ? { duplicateKey: body.duplicateKey } : {}),
  };
  const { op, url, auth } = asked;
  const seen: SeenResponse = {
    ...op,
    check: asked.check,
    status,
    json: response.json,
    text,
    query: Object.fromEntries(url.searchParams),
    auth,
    ...(op.operation === 'listInterns' && auth === 'key'
      ? {
          interns: {
            keyWorkspace: target.interns.workspaceId,
            filterNamed: target.interns.params !== undefined,
          },
        }
      : {}),
    ...(asked.baseUrl !== target.baseUrl ? { regional: true } : {}),
    ...(read.headers['content-type'] !== undefined ? { contentType: read.headers['content-type'] } : {}),
    exchange,
    ...(body.invalidUtf8Offset !== undefined ? { invalidUtf8Offset: body.invalidUtf8Offset } : {}),
    ...(body.duplicateKey !== undefined ? { duplicateKey: body.duplicateKey } : {}),
  };
  return { response, seen, chars: text.length + url.toString().length };
}
