import type { Finding, ResponseJudge, SeenResponse } from './judge.ts';
import { TextMemo } from '../text/text-memo.ts';

type Found = Omit<Finding, 'exchange'>;

const MAX_REQUESTS_PER_BODY = 64;

/**
 * The whole-run judges' findings for a response like one judged before: a run receives the same
 * answer to the same request many times (a page several checks ask), and the judges are pure
 * functions of what is keyed here (the request as sent, the status, the content type and the body),
 * so the findings are those of the first time, with this response's exchange as their evidence.
 */
export class JudgeMemo {
  /**
   * By body, then by request: a body is held once, not copied into a key per request (a default run
   * judges some 15 million characters of bodies); a body asked by more than MAX_REQUESTS_PER_BODY
   * requests is judged anew for the others.
   */
  private readonly memo = new TextMemo<Map<string, readonly Found[]>>();

  constructor(private readonly judges: readonly ResponseJudge[]) {}

  findings(seen: SeenResponse): Finding[] {
    if (seen.text === undefined) return this.judges.flatMap((j) => j.judge(seen));
    const judgeAll = () => this.judges.flatMap((j) => j.judge(seen)).map(({ exchange: _e, ...f }): Found => f);
    const key = JSON.stringify([
      seen.operation,
      seen.status,
      seen.query,
      seen.pathParams,
      seen.auth,
      seen.interns?.keyWorkspace ?? null,
      seen.regional ?? false,
      seen.invalidUtf8Offset ?? null,
      seen.duplicateKey ?? null,
      seen.contentType ?? seen.exchange.response?.headers['content-type'] ?? null,
    ]);
    const byRequest = this.memo.of(seen.text, () => new Map());
    let found = byRequest.get(key);
    if (found === undefined) {
      found = judgeAll();
      if (byRequest.size < MAX_REQUESTS_PER_BODY) byRequest.set(key, found);
    }
    return found.map((f) => ({ ...f, exchange: seen.exchange }));
  }
}
