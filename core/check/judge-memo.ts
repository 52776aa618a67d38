import type { Finding, ResponseJudge, RunNote, SeenResponse } from './judge.ts';
import { TextMemo } from '../text/text-memo.ts';

type Found = Omit<Finding, 'exchange'>;

/** A judge's note of a response (ResponseJudge.note), by the judge's id. */
export type Noted = readonly [judgeId: string, note: RunNote];

const MAX_REQUESTS_PER_BODY = 64;

/**
 * The whole-run judges' findings and notes for a response like one judged before: a run receives the
 * same answer to the same request many times (a page several checks ask), and the judges' `judge` and
 * `note` are pure functions of what is keyed here (the request as sent, the status, the content type
 * and the body), so the findings are those of the first time, with this response's exchange as their
 * evidence, and the notes are those of the first time.
 */
export class JudgeMemo {
  /**
   * By body, then by request: a body is held once, not copied into a key per request (a default run
   * judges some 15 million characters of bodies); a body asked by more than MAX_REQUESTS_PER_BODY
   * requests is judged anew for the others.
   */
  private readonly memo = new TextMemo<Map<string, { found: readonly Found[]; notes: readonly Noted[] }>>();

  constructor(private readonly judges: readonly ResponseJudge[]) {}

  findings(seen: SeenResponse): Finding[] {
    return this.judged(seen).findings;
  }

  /** The findings of `seen` (each with its exchange) and the judges' notes of it, in the judges' order. */
  judged(seen: SeenResponse): { findings: Finding[]; notes: readonly Noted[] } {
    if (seen.text === undefined) return judgedNow(this.judges, seen);
    const judgeAll = () => {
      const now = judgedNow(this.judges, seen);
      return { found: now.findings.map(({ exchange: _e, ...f }): Found => f), notes: now.notes };
    };
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
    let judged = byRequest.get(key);
    if (judged === undefined) {
      judged = judgeAll();
      if (byRequest.size < MAX_REQUESTS_PER_BODY) byRequest.set(key, judged);
    }
    return { findings: judged.found.map((f) => ({ ...f, exchange: seen.exchange })), notes: judged.notes };
  }
}

/** What the judges find (each with its exchange) and note of `seen`, judged now, in the judges' order. */
export function judgedNow(
  judges: readonly ResponseJudge[],
  seen: SeenResponse,
): { findings: Finding[]; notes: readonly Noted[] } {
  const notes: Noted[] = [];
  for (const judge of judges) {
    const note = judge.note?.(seen);
    if (note) notes.push([judge.id, note]);
  }
  return { findings: judges.flatMap((j) => j.judge(seen)), notes };
}
