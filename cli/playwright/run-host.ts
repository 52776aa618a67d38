import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CheckOutcome } from '../../core/check.ts';
import { Engine } from '../../core/engine.ts';
import { serveOutcomes, type OutcomeAnswer } from '../../core/engine-socket.ts';
import { NodeTransport, PlaywrightTransport, type Transport } from '../../core/transport.ts';
import { ALL_CHECKS } from '../../suites/checks/index.ts';
import { RESPONSE_JUDGES } from '../../suites/judges/index.ts';
import type { PreparedRun } from '../prepare-run.ts';

/**
 * The run as Playwright runs it: one engine in the runner process (where the global set-up, the
 * reporters and the test listing live), reached by the tests over a local socket. The runner process
 * lives for the whole run, so the run's state never has to survive a worker: a failing check costs
 * no new worker and no state.
 */
export class RunHost {
  readonly engine: Engine;
  /** Set by the host reporter when it is among the run's reporters (it marks failures as failed). */
  reporterActive = false;
  /** The checks Playwright selected (--grep, --shard), when the host reporter saw them. */
  selection: string[] | undefined;
  shard: string | undefined;
  readonly startedAt = new Date();
  private server: Server | undefined;
  private readonly socketDir = mkdtempSync(join(tmpdir(), 'conformance-engine-'));

  constructor(readonly run: PreparedRun, transport: Transport) {
    this.engine = new Engine({ settings: run.settings, target: run.target, checks: ALL_CHECKS, judges: RESPONSE_JUDGES, transport });
  }

  static async start(run: PreparedRun, playwrightRequest?: () => Promise<import('@playwright/test').APIRequestContext>): Promise<RunHost> {
    const limits = { timeoutMs: run.settings.requestTimeoutMs, bodyCapBytes: run.settings.bodyCapBytes };
    const transport = run.settings.transport === 'playwright' && playwrightRequest ? new PlaywrightTransport(await playwrightRequest(), limits) : new NodeTransport(limits);
    const host = new RunHost(run, transport);
    host.server = await serveOutcomes(host.socketPath, (id) => host.answer(id));
    return host;
  }

  get socketPath(): string {
    return join(this.socketDir, 'engine.sock');
  }

  private async answer(checkId: string): Promise<OutcomeAnswer> {
    const outcome: CheckOutcome = await this.engine.outcome(checkId);
    return { outcome, reportedByHost: this.reporterActive };
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
    await this.engine.input.transport.close();
    rmSync(this.socketDir, { recursive: true, force: true });
  }
}

const KEY = Symbol.for('conformance.run-host');

export function currentHost(): RunHost | undefined {
  return (globalThis as { [KEY]?: RunHost })[KEY];
}

export function setCurrentHost(host: RunHost | undefined): void {
  (globalThis as { [KEY]?: RunHost })[KEY] = host;
}
