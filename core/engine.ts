import type { CheckDeclaration, CheckOutcome } from './check.ts';
import { Client, RunState } from './client.ts';
import { executeCheck, type JudgeContext } from './execute-check.ts';
import { JudgeMemo } from './judge-memo.ts';
import type { ResponseJudge } from './judge.ts';
import { RunNotes } from './run-notes.ts';
import type { RunSettings } from './run-settings.ts';
import { viewOf, type Target, type TargetView } from './target.ts';
import type { Transport } from './transport.ts';

export interface EngineInput {
  settings: RunSettings;
  target: Target;
  /** Every declared check (the selection picks among them). */
  checks: readonly CheckDeclaration[];
  judges: readonly ResponseJudge[];
  transport: Transport;
}

/**
 * One run, one state: the engine runs the checks of a run one at a time against one client whose
 * state (request log, budget, pace, retries, stop) lives in memory for the whole run. Whoever shows
 * the outcomes (Playwright tests, the suite's own tests) asks for them; nothing is kept in files.
 *
 * Checks run in the order they are asked for, except that whole-run checks (CheckDeclaration.wholeRun)
 * wait until every other planned check has run: what they judge is the whole run, whatever the order.
 */
export class Engine {
  readonly state = new RunState();
  readonly client: Client;
  readonly view: TargetView;
  private readonly byId: ReadonlyMap<string, CheckDeclaration>;
  private readonly outcomes = new Map<string, Promise<CheckOutcome>>();
  private readonly settled = new Map<string, CheckOutcome>();
  private readonly judging: JudgeContext;
  /** Checks run strictly one after another: they share the client and the budget. */
  private queue: Promise<unknown> = Promise.resolve();
  private planned: readonly string[] = [];

  constructor(readonly input: EngineInput) {
    this.client = new Client(input.target, input.settings, input.transport, this.state);
    this.view = viewOf(input.target);
    this.byId = new Map(input.checks.map((c) => [c.id, c]));
    this.judging = { judges: input.judges, memo: new JudgeMemo(input.judges), notes: new RunNotes() };
  }

  /**
   * The checks this run will run (a --grep or --shard selection), started at once in declaration
   * order with whole-run checks last; outcome() then only waits for them.
   */
  plan(ids: readonly string[]): void {
    const selected = this.input.checks.filter((c) => ids.includes(c.id));
    this.planned = selected.map((c) => c.id);
    for (const c of selected) if (!c.wholeRun) void this.outcome(c.id);
    for (const c of selected) if (c.wholeRun) void this.outcome(c.id);
  }

  /** The outcome of one check: run now (after those already queued) unless it ran or is queued. */
  outcome(id: string): Promise<CheckOutcome> {
    const known = this.outcomes.get(id);
    if (known) return known;
    const check = this.byId.get(id);
    if (!check) return Promise.reject(new Error(`no declared check ${id}`));
    // A whole-run check asked for before the rest of the plan waits for the rest of the plan.
    if (check.wholeRun) for (const other of this.planned) if (!this.byId.get(other)!.wholeRun) void this.outcome(other);
    const run = this.queue.then(() => executeCheck(check, this.client, this.view, this.input.settings, this.judging));
    this.queue = run.catch(() => undefined);
    const settled = run.then((o) => {
      this.settled.set(id, o);
      return o;
    });
    this.outcomes.set(id, settled);
    return settled;
  }

  /** Outcomes of every check that ran, once all asked-for checks have finished. */
  async finished(): Promise<ReadonlyMap<string, CheckOutcome>> {
    await Promise.allSettled([...this.outcomes.values()]);
    return this.settled;
  }

  /** Checks asked for that have not finished yet. */
  get pending(): number {
    return this.outcomes.size - this.settled.size;
  }
}
