import type { CheckOutcome } from '../check/check.ts';
import { curlCommand } from '../http/curl.ts';
import { detached, EVIDENCE_TEXT_CHARS, excerpt, type Exchange } from '../check/evidence.ts';
import type { Finding, ResponseJudge, SeenResponse } from '../check/judge.ts';
import { judgedNow, type JudgeMemo } from '../check/judge-memo.ts';
import { RunNotes } from './run-notes.ts';
import type { Mask } from '../text/mask.ts';

/** Distinct violations of one requirement a check keeps, whatever a target sends (the rest are counted). */
export const FINDINGS_PER_REQUIREMENT = 20;

/** What the engine shares with every check it runs: the response judges. */
export interface JudgeContext {
  judges: readonly ResponseJudge[];
  /** The judges' findings for a response like one seen before, kept for the run (core/check/judge-memo.ts). */
  memo?: JudgeMemo;
  /** What the judges noted of every response of the run (core/run/run-notes.ts); one check's own when absent. */
  notes?: RunNotes;
}

/**
 * What the response judges find in the responses one part of the run received (a check, or the
 * preflight the command makes before the checks): "Judge every response", whoever asked for it.
 * Each distinct violation once (Finding.dedupeKey), the first FINDINGS_PER_REQUIREMENT of a
 * requirement kept and the rest counted, whatever a target sends. The judges read the target's
 * answers as sent; what they say becomes output here, masked before it is cut (a key the cut would
 * split is not left half shown): rule "Hostile input".
 */
export class ResponseFindings {
  readonly notes: RunNotes;
  private readonly findings: Finding[] = [];
  private readonly reported = new Set<string>();
  private readonly perRequirement = new Map<string, number>();
  private readonly beyond = new Map<string, number>();
  private readonly observedKeys = new Set<string>();

  constructor(
    private readonly judging: JudgeContext,
    private readonly outcome: CheckOutcome,
    private readonly mask: Mask,
  ) {
    this.notes = judging.notes ?? new RunNotes();
  }

  /** One response received: noted, observed and judged. */
  take(seen: SeenResponse): void {
    const { judges, memo } = this.judging;
    const judged = memo ? memo.judged(seen) : judgedNow(judges, seen);
    for (const [judgeId, note] of judged.notes) this.notes.add(judgeId, note);
    for (const judge of judges) {
      const observation = judge.observe?.(seen);
      if (observation && !this.observedKeys.has(JSON.stringify(observation))) {
        this.observedKeys.add(JSON.stringify(observation));
        this.outcome.observations.push({
          requirementId: observation.requirementId,
          value: boundedValue(observation.value, this.mask),
        });
      }
    }
    for (const f of judged.findings) {
      const key = f.dedupeKey ?? `${f.requirementId}\u0000${f.message}`;
      if (this.reported.has(key)) continue;
      this.reported.add(key);
      const kept = this.perRequirement.get(f.requirementId) ?? 0;
      if (kept >= FINDINGS_PER_REQUIREMENT) {
        this.beyond.set(f.requirementId, (this.beyond.get(f.requirementId) ?? 0) + 1);
        continue;
      }
      this.perRequirement.set(f.requirementId, kept + 1);
      this.findings.push(f);
    }
  }

  /**
   * What the judges saw is evidence whatever the probe concluded: a violation seen is a failure of
   * the outcome, under the finding's requirement.
   */
  finish(): void {
    const outcome = this.outcome;
    for (const f of this.findings) {
      const at = f.position === undefined ? '' : ` (record ${f.position})`;
      outcome.failures.push({
        requirementId: f.requirementId,
        message: `${excerpt(this.mask.text(f.message))}${at}`,
        exchanges: [f.exchange],
        ...curlOf(f.exchange),
      });
    }
    for (const [requirementId, more] of this.beyond) {
      const last = outcome.failures.findLast((x) => x.requirementId === requirementId);
      if (last) last.message += ` (and ${more} more distinct violations of ${requirementId} in this check, not listed)`;
    }
    const first = this.findings[0];
    if (first && outcome.status !== 'fail') {
      outcome.status = 'fail';
      outcome.reason = `${first.requirementId}: ${excerpt(this.mask.text(first.message))}`;
    }
  }
}

/**
 * The outcome of responses the run received outside its checks (the command's preflight: its first
 * request to each operation), judged by the same judges as every check's. Its id is the part of the
 * run that asked, the same in every run whatever its selection ("Verdicts in both directions").
 */
export function judgeReceived(
  checkId: string,
  responses: readonly SeenResponse[],
  judges: readonly ResponseJudge[],
  mask: Mask,
): CheckOutcome {
  const outcome: CheckOutcome = {
    checkId,
    status: 'pass',
    failures: [],
    observations: [],
    requests: responses.length,
    seed: 0,
  };
  const findings = new ResponseFindings({ judges }, outcome, mask);
  for (const seen of responses) findings.take({ ...seen, check: checkId });
  findings.finish();
  return outcome;
}

/** The reproduction command of a failure: the request as sent, with only the header that matters. */
export function curlOf(exchange: Exchange | undefined): { curl?: string } {
  if (!exchange) return {};
  const auth = exchange.request.headers['authorization'];
  return { curl: curlCommand(exchange.request.url, auth === undefined ? {} : { authorization: auth }) };
}

/** A value with the keys in it masked: itself when it holds none, else read back from its masked JSON. */
export function maskedValue(value: unknown, mask: Mask): unknown {
  const raw = JSON.stringify(value);
  if (raw === undefined) return value;
  const json = mask.text(raw);
  if (json === raw) return value;
  try {
    return JSON.parse(json);
  } catch {
    return { excerpt: excerpt(json) };
  }
}

/**
 * An observed value as evidence, masked: a copy of it (read back from its masked JSON: a string parsed
 * out of a body would keep the whole body alive for the run, core/check/evidence.ts detached), or past
 * EVIDENCE_TEXT_CHARS of JSON (or JSON the mask left unreadable) an excerpt of its JSON.
 */
export function boundedValue(value: unknown, mask: Mask): unknown {
  const raw = JSON.stringify(value);
  if (raw === undefined) return value;
  const json = mask.text(raw);
  if (json.length > EVIDENCE_TEXT_CHARS) return { excerpt: excerpt(json) };
  try {
    return JSON.parse(detached(json));
  } catch {
    return { excerpt: excerpt(json) };
  }
}
