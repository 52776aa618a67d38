import { mkdtempSync } from 'node:fs';
import { createConnection, createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CheckOutcome } from './check.ts';
import type { Secret } from './mask.ts';

/** Where the run's engine answers: set by the command line, else by the global set-up (cli/playwright/global-setup.ts). */
export const ENGINE_SOCKET_ENV = 'CONFORMANCE_ENGINE_SOCKET';

/**
 * The line protocol between the Playwright processes and the run's engine (in the command's own
 * process, or in Playwright's runner when Playwright is started directly): a test asks for its
 * check's outcome with the check's id, the engine answers when the check has run; the runner's host
 * reporter hands over Playwright's selection with one JSON line. Workers hold no state: a worker that
 * Playwright replaces loses nothing.
 */
export interface OutcomeAnswer {
  outcome: CheckOutcome;
  /**
   * The runner's own reporter marks a failing check's result as failed (cli/playwright/host-reporter.ts),
   * so the test need not throw; a test that throws costs a new worker process (about 0.6 s each).
   */
  reportedByHost: boolean;
  /** The outcome fails the gate by the verdict's rule (core/gating.ts): a SHOULD failure under fail-on must does not. */
  gating: boolean;
}

/** Playwright's selection as its runner saw it at onBegin (--grep, --shard). */
export interface PlanMessage {
  plan: string[];
  shard?: string;
}

export interface EngineHandlers {
  outcome(checkId: string): Promise<OutcomeAnswer>;
  plan(message: PlanMessage): void;
  /** The checks as the tests need them (core/playwright-tests.ts CheckListing), as JSON. */
  listing(): string;
  /** The target's keys, for the runner's console reporter to mask (they never travel in the environment). */
  keys(): Secret[];
}

/** What the runner's global set-up receives before any test: the check listing and the keys to mask. */
export interface RunnerStart {
  listing: string;
  keys: Secret[];
}

export function serveOutcomes(path: string, handlers: EngineHandlers): Promise<Server> {
  const server = createServer((socket) => {
    let buffered = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      buffered += chunk;
      let nl: number;
      while ((nl = buffered.indexOf('\n')) >= 0) {
        const line = buffered.slice(0, nl);
        buffered = buffered.slice(nl + 1);
        if (line.startsWith('{')) {
          try {
            const message = JSON.parse(line) as PlanMessage | { listing: true };
            if ('listing' in message) socket.write(`{"listing":${handlers.listing()},"keys":${JSON.stringify(handlers.keys())}}\n`);
            else {
              handlers.plan(message);
              socket.write('{"ok":true}\n');
            }
          } catch (e) {
            socket.write(JSON.stringify({ error: (e as Error)?.message ?? String(e) }) + '\n');
          }
          continue;
        }
        handlers.outcome(line).then(
          (a) => socket.write(JSON.stringify(a) + '\n'),
          (e: unknown) => socket.write(JSON.stringify({ error: (e as Error)?.message ?? String(e) }) + '\n'),
        );
      }
    });
    socket.on('error', () => socket.destroy());
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, () => resolve(server));
  });
}

/**
 * How long a client waits for the engine's socket to appear: the command starts Playwright first and
 * its engine while Playwright boots, so the first question may come before the engine listens.
 */
const CONNECT_WAIT_MS = 30_000;
const CONNECT_RETRY_MS = 25;

function ask<T>(path: string, line: string): Promise<T> {
  const deadline = Date.now() + CONNECT_WAIT_MS;
  return new Promise((resolve, reject) => {
    const attempt = () => {
      const socket = createConnection(path);
      let buffered = '';
      let connected = false;
      socket.setEncoding('utf8');
      socket.on('connect', () => {
        connected = true;
        socket.write(line + '\n');
      });
      socket.on('data', (chunk: string) => {
        buffered += chunk;
        const nl = buffered.indexOf('\n');
        if (nl < 0) return;
        socket.end();
        const answer = JSON.parse(buffered.slice(0, nl)) as T | { error: string };
        if (answer && typeof answer === 'object' && 'error' in answer) reject(new Error(answer.error));
        else resolve(answer as T);
      });
      socket.on('error', (e: NodeJS.ErrnoException) => {
        if (!connected && (e.code === 'ENOENT' || e.code === 'ECONNREFUSED') && Date.now() < deadline) setTimeout(attempt, CONNECT_RETRY_MS);
        else reject(e);
      });
    };
    attempt();
  });
}

export function askOutcome(path: string, checkId: string): Promise<OutcomeAnswer> {
  return ask<OutcomeAnswer>(path, checkId);
}

/**
 * The check listing, from the engine that loaded the checks (the runner then loads none of them), and
 * the target's keys: the runner starts before the command has read the target, so it learns them here.
 */
export function askRunnerStart(path: string): Promise<RunnerStart> {
  return ask<{ listing: unknown; keys: Secret[] }>(path, '{"listing":true}').then((a) => ({ listing: JSON.stringify(a.listing), keys: a.keys }));
}

export function sendPlan(path: string, message: PlanMessage): Promise<void> {
  return ask<{ ok: true }>(path, JSON.stringify(message)).then(() => undefined);
}

/** A fresh private directory for the engine's socket (the command names it before Playwright starts). */
export function engineSocketPath(): string {
  return join(mkdtempSync(join(tmpdir(), 'conformance-engine-')), 'engine.sock');
}
