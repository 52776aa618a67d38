import { rmSync } from 'node:fs';
import type { Server } from 'node:net';
import { join } from 'node:path';
import type { CheckOutcome } from '../../core/check/check.ts';
import { Engine } from '../../core/run/engine.ts';
import { concurrencyOf, deadlineLeftMs, deadlineReason } from '../../core/run/run-settings.ts';
import { isGating } from '../../core/check/gating.ts';
import {
  closeEngineServer,
  engineSocketPath,
  serveOutcomes,
  type OutcomeAnswer,
  type PlanMessage,
} from '../../playwright/engine-socket.ts';
import { recordingTransport } from '../../core/http/recorder.ts';
import { NodeTransport, PlaywrightTransport, type Transport } from '../../core/http/transport.ts';
import { listingOf } from '../../core/check/check-listing.ts';
import { secretsOf } from '../../core/text/mask.ts';
import { terminalSafe } from '../../core/text/terminal-text.ts';
import { locatedListing } from '../../suites/check-locations.ts';
import { ALL_CHECKS } from '../../suites/checks/index.ts';
import { RESPONSE_JUDGES } from '../../suites/judges/index.ts';
import type { PreparedRun } from '../prepare-run.ts';

/**
 * One run's engine and the socket the Playwright tests reach it by. The command line hosts it in its
 * own process from the moment the target is prepared, so the checks run while Playwright's runner
 * boots; a direct `npx playwright test` hosts it in the runner process (global set-up). Either way the
 * process lives for the whole run, so the run's state never has to survive a worker.
 *
 * The command opens the socket before its preflight (RunHost.open), so the runner's global set-up has
 * the listing and the keys while the preflight runs; a test's question and Playwright's selection wait
 * until the run begins (begin()): no check sends a request before the preflight has passed.
 */
export class RunHost {
  readonly engine: Engine;
  /** Set when the host reporter is among the run's reporters (it marks failures as failed). */
  reporterActive = false;
  /** The checks this run runs: computed by the command (cli/selection.ts), else Playwright's at onBegin. */
  selection: string[] | undefined;
  shard: string | undefined;
  /** When the engine began (begin()): the report's start. */
  startedAt = new Date();
  private server: Server | undefined;
  private deadline: NodeJS.Timeout | undefined;
  private opened!: () => void;
  private readonly begun = new Promise<void>((resolve) => (this.opened = resolve));

  constructor(
    readonly run: PreparedRun,
    transport: Transport,
    readonly socketPath = engineSocketPath(),
  ) {
    this.engine = new Engine({
      settings: run.settings,
      target: run.target,
      checks: ALL_CHECKS,
      judges: RESPONSE_JUDGES,
      transport,
    });
  }

  /** A host whose run has begun: its tests are answered at once (a direct `npx playwright test`). */
  static async start(
    run: PreparedRun,
    playwrightRequest?: () => Promise<import('@playwright/test').APIRequestContext>,
    socketPath?: string,
  ): Promise<RunHost> {
    const host = await RunHost.open(run, playwrightRequest, socketPath);
    host.begin();
    return host;
  }

  /** A host listening on its socket, its run not begun: the listing and the keys are served, nothing else yet. */
  static async open(
    run: PreparedRun,
    playwrightRequest?: () => Promise<import('@playwright/test').APIRequestContext>,
    socketPath?: string,
  ): Promise<RunHost> {
    const limits = {
      timeoutMs: run.settings.requestTimeoutMs,
      bodyCapBytes: run.settings.bodyCapBytes,
      connections: concurrencyOf(run.settings),
    };
    const sent =
      run.settings.transport === 'playwright' && playwrightRequest
        ? new PlaywrightTransport(await playwrightRequest(), limits)
        : new NodeTransport(limits);
    const transport = run.evidence ? recordingTransport(sent, run.evidence) : sent;
    const host = new RunHost(run, transport, socketPath);
    // Made now, not when the runner asks: the runner waits for it (loading the catalogue is most of it).
    checkListingJson();
    host.server = await serveOutcomes(host.socketPath, {
      outcome: (id) => host.answer(id),
      planned: () => host.begun.then(() => host.selection ?? []),
      plan: (m) =>
        void host.begun
          .then(() => host.fromRunner(m))
          .catch((e: unknown) =>
            process.stderr.write(
              `conformance: the run's engine did not take Playwright's selection: ${terminalSafe(String((e as Error)?.message ?? e))}\n`,
            ),
          ),
      listing: () => checkListingJson(),
      keys: () => secretsOf(run.target),
    });
    return host;
  }

  /** The run begins: the questions that waited are answered, and the engine may send requests. */
  begin(): void {
    this.startedAt = new Date();
    this.opened();
  }

  /**
   * Starts the selected checks (in planOrder, whole-run checks' probes after the rest: Engine.plan),
   * with what is left of the run's deadline: it counts from the command's start (settings.startedAt),
   * so the preflight and Playwright's start-up spent their part.
   */
  plan(ids: readonly string[]): void {
    this.selection ??= [...ids];
    this.deadline ??= setTimeout(() => {
      this.engine.state.deadlinePassed = true;
      this.stop(deadlineReason(this.run.settings));
    }, deadlineLeftMs(this.run.settings)).unref();
    this.engine.plan(ids);
  }

  /** The run sends nothing more; checks not yet run end cut short, with this reason. */
  stop(reason: string): void {
    this.engine.state.stopped ??= reason;
    // A request in flight ends now, not at its time-out: a run stopped at its deadline (or by a
    // signal) does not wait up to --timeout more for an answer it will not judge.
    void this.engine.input.transport.close();
  }

  /** Playwright's selection from the runner's host reporter. */
  private fromRunner(m: PlanMessage): void {
    this.reporterActive = true;
    if (m.shard) this.shard = m.shard;
    if (this.selection) {
      // The command computed the selection itself; Playwright's must be the same checks.
      const mine = new Set(this.selection);
      if (m.plan.length !== mine.size || m.plan.some((id) => !mine.has(id))) {
        process.stderr.write(
          `conformance: Playwright selected ${m.plan.length} check(s) where the command computed ${mine.size}; the report covers the checks that ran\n`,
        );
        this.selection = [...new Set([...this.selection, ...m.plan])];
      }
    }
    this.plan(m.plan);
  }

  private async answer(checkId: string): Promise<OutcomeAnswer> {
    await this.begun;
    const outcome: CheckOutcome = await this.engine.outcome(checkId);
    return { outcome, reportedByHost: this.reporterActive, gating: isGating(outcome, this.run.settings.failOn) };
  }

  async close(): Promise<void> {
    clearTimeout(this.deadline);
    if (this.server) await closeEngineServer(this.server);
    await this.engine.input.transport.close();
    rmSync(join(this.socketPath, '..'), { recursive: true, force: true });
  }
}

let listing: string | undefined;

/** Every declared check as its Playwright test needs it, located at its declaration (computed once). */
export function checkListingJson(): string {
  return (listing ??= JSON.stringify(locatedListing(listingOf(ALL_CHECKS))));
}
