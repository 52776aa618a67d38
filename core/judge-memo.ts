import type { Finding, ResponseJudge, SeenResponse } from './judge.ts';
import { TextMemo } from './text-memo.ts';

type Found = Omit<Finding, 'exchange'>;

/**
 * The whole-run judges' findings for a response like one judged before: a run receives the same
 * answer to the same request many times (a page several checks ask), and the judges are pure
 * functions of what is keyed here (the request as sent, the status, the content type and the body),
 * so the findings are those of the first time, with this response's exchange as their evidence.
 */
export class JudgeMemo {
  private readonly memo = new TextMemo<readonly Found[]>();

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
      seen.exchange.response?.headers['content-type'] ?? null,
    ]);
    return this.memo.of(`${key}\u0000${seen.text}`, judgeAll).map((f) => ({ ...f, exchange: seen.exchange }));
  }
}
