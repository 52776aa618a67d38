import { checkSeed, type CheckDeclaration, type CheckOutcome, type ProbeContext } from '../check/check.ts';
import type { Client } from '../http/client.ts';
import { curlCommand } from '../http/curl.ts';
import { CannotJudge, ConformanceFailure, SkipCheck } from '../check/errors.ts';
import { detached, EVIDENCE_TEXT_CHARS, excerpt, type Exchange } from '../check/evidence.ts';
import { conform } from '../check/expect.ts';
import type { Finding, ResponseJudge } from '../check/judge.ts';
import type { JudgeMemo } from '../check/judge-memo.ts';
import { RunNotes } from './run-notes.ts';
import type { RunSettings } from './run-settings.ts';
import type { TargetView } from '../target/target.ts';
import type { Mask } from '../text/mask.ts';

/** Distinct violations of one requirement a check keeps (the rest are counted, principle 4). */
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
 * Runs one check's probe, on a client of its own (Client.forCheck) over `client`'s run, and classifies what happened: a ConformanceFailure is the target's `fail`;
 * CannotJudge is `error` (or `skip` when the budget is spent); anything else is a suite `error`.
 * Every response the check receives is also handed to the whole-run judges (record rules, schema of
 * every response): what they find fails the check that saw it, under the finding's requirement.
 */
export async function executeCheck(
  check: CheckDeclaration,
  client: Client,
  target: TargetView,
  settings: Readonly<RunSettings>,
  judging: JudgeContext = { judges: [] },
  /** Between a whole-run check's gather and its probe: waits for its turn (core/run/engine.ts). */
  beforeProbe?: () => Promise<void>,
  /** Where its requests wait for a place in flight and for the pace: a lower rank is served first (the engine's schedule). */
  rank = 0,
): Promise<CheckOutcome> {
  const seed = checkSeed(settings.seed, check.id);
  // The check's own client over the run's state: checks in flight together keep their exchanges and
  // response listeners apart, and share the budget, the pace, the pause and the run's memory.
  // Its requests wait for a place in flight, and for the pace, by the rank the engine gives it.
  client = client.forCheck(check.id, rank);
  // The checks and judges read the target's answers as sent; what they say becomes output here, masked
  // before it is cut (a key the cut would split is not left half shown): "Hostile input".
  const shown = (text: string): string => excerpt(client.mask.text(text));
  const bounded = (value: unknown): unknown => boundedValue(value, client.mask);
  const outcome: CheckOutcome = {
    checkId: check.id,
    status: 'pass',
    failures: [],
    observations: [],
    requests: 0,
    seed,
  };
  // Each distinct violation once per check (Finding.dedupeKey); the report keeps it once per
  // requirement. Per check, not per run: what a check reports does not depend on what ran before it.
  const findings: Finding[] = [];
  const reported = new Set<string>();
  // Bounded whatever a target sends (principle 4): the first FINDINGS_PER_REQUIREMENT distinct
  // violations of a requirement are kept, the rest counted and said.
  const perRequirement = new Map<string, number>();
  const beyond = new Map<string, number>();
  const observedKeys = new Set<string>();
  const notes = judging.notes ?? new RunNotes();
  client.onResponse = (seen) => {
    for (const judge of judging.judges) {
      const note = judge.note?.(seen);
      if (note) notes.add(judge.id, note);
      const observation = judge.observe?.(seen);
      if (observation && !observedKeys.has(JSON.stringify(observation))) {
        observedKeys.add(JSON.stringify(observation));
        outcome.observations.push({ requirementId: observation.requirementId, value: bounded(observation.value) });
      }
    }
    for (const f of judging.memo ? judging.memo.findings(seen) : judging.judges.flatMap((j) => j.judge(seen))) {
      const key = f.dedupeKey ?? `${f.requirementId}\u0000${f.message}`;
      if (reported.has(key)) continue;
      reported.add(key);
      const kept = perRequirement.get(f.requirementId) ?? 0;
      if (kept >= FINDINGS_PER_REQUIREMENT) {
        beyond.set(f.requirementId, (beyond.get(f.requirementId) ?? 0) + 1);
        continue;
      }
      perRequirement.set(f.requirementId, kept + 1);
      findings.push(f);
    }
  };
  const ctx: ProbeContext = {
    api: client,
    target,
    settings,
    seed,
    log: client.log.entries,
    notes,
    observe: (requirementId, value) => {
      if (!check.requirements.includes(requirementId))
        throw new Error(`${check.id} observes ${requirementId}, which it does not declare`);
      outcome.observations.push({ requirementId, value: bounded(value) });
    },
    skip: (reason) => {
      throw new SkipCheck(reason);
    },
    conform: (condition, message, res, requirementId = check.requirements[0]!) => {
      if (!check.requirements.includes(requirementId))
        throw new Error(`${check.id} fails ${requirementId}, which it does not declare`);
      conform(condition, requirementId, message, res);
    },
  };
  try {
    const missing = check.needs?.(target);
    if (missing) {
      outcome.cause = 'target-field';
      throw new SkipCheck(missing);
    }
    await check.gather?.(ctx);
    await beforeProbe?.();
    await check.probe(ctx);
    outcome.probeCompleted = true;
  } catch (e) {
    if (e instanceof SkipCheck) {
      outcome.status = 'skip';
      outcome.reason = shown(e.message);
    } else if (e instanceof ConformanceFailure) {
      outcome.status = 'fail';
      outcome.reason = shown(e.message);
      const exchanges = e.exchanges.length ? [...e.exchanges] : client.exchanges.slice(-1);
      outcome.failures.push({
        requirementId: check.requirements.includes(e.requirementId) ? e.requirementId : check.requirements[0]!,
        message: shown(e.message),
        exchanges,
        ...curlOf(exchanges[exchanges.length - 1]),
        ...(e.counterexample
          ? { counterexample: { ...e.counterexample, value: maskedValue(e.counterexample.value, client.mask) } }
          : {}),
      });
    } else if (e instanceof CannotJudge) {
      outcome.status = e.reason === 'budget' ? 'skip' : 'error';
      outcome.reason = shown(e.message);
      if (e.reason === 'budget' || client.state.stopped) outcome.cause = 'run-limit';
    } else {
      outcome.status = 'error';
      outcome.reason = shown(`suite error: ${(e as Error)?.message ?? String(e)}`);
    }
  } finally {
    client.onResponse = undefined;
  }
  // What the judges saw is evidence whatever the probe concluded: a violation seen is a failure.
  for (const f of findings) {
    const at = f.position === undefined ? '' : ` (record ${f.position})`;
    outcome.failures.push({
      requirementId: f.requirementId,
      message: `${shown(f.message)}${at}`,
      exchanges: [f.exchange],
      ...curlOf(f.exchange),
    });
  }
  for (const [requirementId, more] of beyond) {
    const last = outcome.failures.findLast((x) => x.requirementId === requirementId);
    if (last) last.message += ` (and ${more} more distinct violations of ${requirementId} in this check, not listed)`;
  }
  if (findings.length && outcome.status !== 'fail') {
    outcome.status = 'fail';
    outcome.reason = `${findings[0]!.requirementId}: ${shown(findings[0]!.message)}`;
  }
  // What the check asked, sent or answered from the run's memory: which check of those asking one
  // request sent it does not change what each counts.
  outcome.requests = client.asked;
  return outcome;
}

/** The reproduction command of a failure: the request as sent, with only the header that matters. */
function curlOf(exchange: Exchange | undefined): { curl?: string } {
  if (!exchange) return {};
  const auth = exchange.request.headers['authorization'];
  return { curl: curlCommand(exchange.request.url, auth === undefined ? {} : { authorization: auth }) };
}

/** A value with the keys in it masked: itself when it holds none, else read back from its masked JSON. */
function maskedValue(value: unknown, mask: Mask): unknown {
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
function boundedValue(value: unknown, mask: Mask): unknown {
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
