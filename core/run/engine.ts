import { expectedFinishOrder, planOrder, type CheckDeclaration, type CheckOutcome } from '../check/check.ts';
import { Client, RunState } from '../http/client.ts';
import { executeCheck, type JudgeContext } from './execute-check.ts';
import { JudgeMemo } from '../check/judge-memo.ts';
import { FailureCount, maxFailuresReason } from './max-failures.ts';
import { Places } from './places.ts';
import type { ResponseJudge } from '../check/judge.ts';
import { RunNotes, type RunNotesView } from './run-notes.ts';
import { concurrencyOf, type RunSettings } from './run-settings.ts';
import { viewOf, type Target, type TargetView } from '../target/target.ts';
import type { Transport } from '../http/transport.ts';

export interface EngineInput {
  settings: RunSettings;
  target: Target;
  /** Every declared check (the selection picks among them). */
  checks: readonly CheckDeclaration[];
  judges: readonly ResponseJudge[];
  transport: Transport;
}

/**
 * One run, one state: the engine runs the checks of a run, up to settings.concurrency of them in flight
 * together, each on a client of its own (Client.forCheck) over the run's state (request log, budget,
 * pace, the pause a 429/503 asks for, retries, stop) and memory (answers already received), all in
 * memory for the whole run. Whoever shows the outcomes (Playwright tests, the suite's own tests) asks
 * for them; nothing is kept in files.
 *
 * Checks start in the order they are asked for (plan: longest first); their requests take places in
 * flight, and the pace's slots, in the order the checks are expected to finish (expectedFinishOrder, the
 * order the Playwright tests ask for outcomes in), so that the worker reports as the run goes. Whole-run checks
 * (CheckDeclaration.wholeRun) send their own requests (gather) in that order too, beside the others,
 * then wait until every other planned check has finished to probe, one after another: what they judge
 * is the whole run, whatever the order. What a check concludes depends on the answers it receives,
 * never on which check ran beside it, so the verdict is the same at any concurrency
 * (test/self-test.test.ts, test/concurrency.test.ts).
 */
export class Engine {
  readonly state = new RunState();
  readonly client: Client;
  readonly view: TargetView;
  private readonly byId: ReadonlyMap<string, CheckDeclaration>;
  private readonly outcomes = new Map<string, Promise<CheckOutcome>>();
  private readonly settled = new Map<string, CheckOutcome>();
  private readonly judging: JudgeContext;
  private readonly runNotes = new RunNotes();
  /** Checks in flight together at most. */
  readonly concurrency: number;
  /** Places of checks in flight, first asked first: a finishing check hands its place to the first waiting. */
  private readonly places = new Places();
  /** Each planned check's place in the expected finish order: its requests' rank (Client.forCheck). */
  private readonly ranks = new Map<string, number>();
  /** Whole-run checks' probes run one after another, after the rest. */
  private wholeRunQueue: Promise<unknown> = Promise.resolve();
  /** Each whole-run check's gather, settled once it has sent what it sends beside the other checks. */
  private readonly gathers: Array<Promise<void>> = [];
  /** The requirements failed so far at a gating level, against --max-failures. */
  private readonly failures: FailureCount;

  constructor(readonly input: EngineInput) {
    this.client = new Client(input.target, input.settings, input.transport, this.state);
    this.view = viewOf(input.target);
    this.byId = new Map(input.checks.map((c) => [c.id, c]));
    this.judging = { judges: input.judges, memo: new JudgeMemo(input.judges), notes: this.runNotes };
    this.concurrency = concurrencyOf(input.settings);
    this.failures = new FailureCount(input.settings);
  }

  /**
   * The checks this run will run (a --grep or --shard selection), started at once in planOrder: the
   * run's longest chains begin with it. Their requests are served in the order the checks are expected
   * to finish: a check expected early is not held up by the long chains beside it, and does finish
   * early. What a check concludes depends on neither order (test/order-independence.test.ts).
   */
  plan(ids: readonly string[]): void {
    const selected = this.input.checks.filter((c) => ids.includes(c.id));
    for (const [i, c] of expectedFinishOrder(selected, this.input.settings.numRuns, this.concurrency).entries()) {
      this.ranks.set(c.id, i);
    }
    for (const c of planOrder(selected, this.input.settings.numRuns)) void this.outcome(c.id);
  }

  /** The outcome of one check: started as soon as a place is free unless it ran or is started. */
  outcome(id: string): Promise<CheckOutcome> {
    const known = this.outcomes.get(id);
    if (known) return known;
    const check = this.byId.get(id);
    if (!check) return Promise.reject(new Error(`no declared check ${id}`));
    let run: Promise<CheckOutcome>;
    if (check.wholeRun) {
      // A whole-run check takes its place in the plan's order: its gather runs then, beside the other
      // checks (its walks are among the run's longest chains). Its probe waits, out of place, for every
      // other check asked for by then (plan() asks for all of its checks at once, before any probe), for
      // every whole-run check's gather and for the whole-run checks before it.
      const before = this.wholeRunQueue;
      let gathered!: () => void;
      this.gathers.push(new Promise<void>((resolve) => (gathered = resolve)));
      const turn = async () => {
        gathered();
        const others = [...this.outcomes].filter(([other]) => !this.byId.get(other)!.wholeRun).map(([, o]) => o);
        await this.outOfPlace(Promise.allSettled([before, ...others, ...this.gathers]));
      };
      run = this.inPlace(() =>
        executeCheck(check, this.client, this.view, this.input.settings, this.judging, turn, this.ranks.get(id)),
      ).finally(gathered);
      this.wholeRunQueue = run.catch(() => undefined);
    } else
      run = this.inPlace(() =>
        executeCheck(check, this.client, this.view, this.input.settings, this.judging, undefined, this.ranks.get(id)),
      );
    const settled = run.then((o) => {
      this.settled.set(id, o);
      // --max-failures: the run sends nothing more; the checks left end not judged (core/run/execute-check.ts).
      if (this.failures.note(o)) this.state.stopped ??= maxFailuresReason(this.input.settings.maxFailures!);
      return o;
    });
    this.outcomes.set(id, settled);
    return settled;
  }

  /** Runs `work` once fewer than `concurrency` checks are in flight. */
  private async inPlace<T>(work: () => Promise<T>): Promise<T> {
    await this.places.take(this.concurrency);
    try {
      return await work();
    } finally {
      this.places.leave();
    }
  }

  /** A check in place waits for `wait` without holding its place, then takes one again. */
  private async outOfPlace(wait: Promise<unknown>): Promise<void> {
    this.places.leave();
    try {
      await wait;
    } finally {
      await this.places.take(this.concurrency);
    }
  }

  /** Outcomes of every check that ran, once all asked-for checks have finished. */
  async finished(): Promise<ReadonlyMap<string, CheckOutcome>> {
    await Promise.allSettled([...this.outcomes.values()]);
    return this.settled;
  }

  /** Outcomes of the checks that have finished so far (the rest may still be in flight). */
  /** What the judges noted of every response (the run's coverage reads it). */
  get notes(): RunNotesView {
    return this.runNotes;
  }

  get settledOutcomes(): ReadonlyMap<string, CheckOutcome> {
    return this.settled;
  }

  /** Checks asked for that have not finished yet. */
  get pending(): number {
    return this.outcomes.size - this.settled.size;
  }
}
