import { rmSync } from 'node:fs';
import type { Server } from 'node:net';
import { join } from 'node:path';
import type { CheckOutcome } from '../../core/check.ts';
import { Engine } from '../../core/engine.ts';
import { deadlineLeftMs, deadlineReason } from '../../core/run-settings.ts';
import { isGating } from '../../core/gating.ts';
import { engineSocketPath, serveOutcomes, type OutcomeAnswer, type PlanMessage } from '../../core/engine-socket.ts';
import { NodeTransport, PlaywrightTransport, type Transport } from '../../core/transport.ts';
import { listingOf } from '../../core/check-listing.ts';
import { locatedListing } from '../../suites/check-locations.ts';
import { ALL_CHECKS } from '../../suites/checks/index.ts';
import { RESPONSE_JUDGES } from '../../suites/judges/index.ts';
import type { PreparedRun } from '../prepare-run.ts';


/**
 * One run's engine and the socket the Playwright tests reach it by. The command line hosts it in its
 * own process from the moment the target is prepared, so the checks run while Playwright's runner
 * boots; a direct `npx playwright test` hosts it in the runner process (global set-up). Either way the
 * process lives for the whole run, so the run's state never has to survive a worker.
 */
export class RunHost {
  readonly engine: Engine;
  /** Set when the host reporter is among the run's reporters (it marks failures as failed). */
  reporterActive = false;
  /** The checks this run runs: computed by the command (cli/selection.ts), else Playwright's at onBegin. */
  selection: string[] | undefined;
  shard: string | undefined;
  readonly startedAt = new Date();
  private server: Server | undefined;
  private deadline: NodeJS.Timeout | undefined;

  constructor(readonly run: PreparedRun, transport: Transport, readonly socketPath = engineSocketPath()) {
    this.engine = new Engine({ settings: run.settings, target: run.target, checks: ALL_CHECKS, judges: RESPONSE_JUDGES, transport });
  }

  static async start(run: PreparedRun, playwrightRequest?: () => Promise<import('@playwright/test').APIRequestContext>, socketPath?: string): Promise<RunHost> {
    const limits = { timeoutMs: run.settings.requestTimeoutMs, bodyCapBytes: run.settings.bodyCapBytes };
    const transport = run.settings.transport === 'playwright' && playwrightRequest ? new PlaywrightTransport(await playwrightRequest(), limits) : new NodeTransport(limits);
    const host = new RunHost(run, transport, socketPath);
    host.server = await serveOutcomes(host.socketPath, { outcome: (id) => host.answer(id), plan: (m) => host.fromRunner(m), listing: () => checkListingJson() });
    return host;
  }

  /**
   * Starts the selected checks (declaration order, whole-run checks last: the same selection runs in
   * the same order whatever decided it), with what is left of the run's deadline: it counts from the
   * command's start (settings.startedAt), so the preflight and Playwright's start-up spent their part.
   */
  plan(ids: readonly string[]): void {
    this.selection ??= [...ids];
    this.deadline ??= setTimeout(() => this.stop(deadlineReason(this.run.settings)), deadlineLeftMs(this.run.settings)).unref();
    this.engine.plan(ids);
  }

  /** The run sends nothing more; checks not yet run end cut short, with this reason. */
  stop(reason: string): void {
    this.engine.state.stopped ??= reason;
  }

  /** Playwright's selection from the runner's host reporter. */
  private fromRunner(m: PlanMessage): void {
    this.reporterActive = true;
    if (m.shard) this.shard = m.shard;
    if (this.selection) {
      // The command computed the selection itself; Playwright's must be the same checks.
      const mine = new Set(this.selection);
      if (m.plan.length !== mine.size || m.plan.some((id) => !mine.has(id))) {
        process.stderr.write(`conformance: Playwright selected ${m.plan.length} check(s) where the command computed ${mine.size}; the report covers the checks that ran\n`);
        this.selection = [...new Set([...this.selection, ...m.plan])];
      }
    }
    this.plan(m.plan);
  }

  private async answer(checkId: string): Promise<OutcomeAnswer> {
    const outcome: CheckOutcome = await this.engine.outcome(checkId);
    return { outcome, reportedByHost: this.reporterActive, gating: isGating(outcome, this.run.settings.failOn) };
  }

  async close(): Promise<void> {
    clearTimeout(this.deadline);
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
    await this.engine.input.transport.close();
    rmSync(join(this.socketPath, '..'), { recursive: true, force: true });
  }
}

let listing: string | undefined;

/** Every declared check as its Playwright test needs it, located at its declaration (computed once). */
export function checkListingJson(): string {
  return (listing ??= JSON.stringify(locatedListing(listingOf(ALL_CHECKS))));
}
