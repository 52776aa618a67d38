import { mkdtempSync } from 'node:fs';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CheckOutcome } from '../core/check/check.ts';
import type { Secret } from '../core/text/mask.ts';

/** Where the run's engine answers: set by the command line, else by the global set-up (cli/playwright/global-setup.ts). */
export const ENGINE_SOCKET_ENV = 'CONFORMANCE_ENGINE_SOCKET';

/**
 * The line protocol between the Playwright processes and the run's engine (in the command's own
 * process, or in Playwright's runner when Playwright is started directly): a test asks for its
 * check's outcome with the check's id, the engine answers when the check has run; the runner's host
 * reporter hands over Playwright's selection with one JSON line. A worker follows the run on one
 * connection (OutcomeFollower): `{"follow":true}` is answered with the checks the run plans, and each
 * of their outcomes is sent as it settles, so the worker's tests never wait on the engine's event loop
 * to accept and read a question. Workers hold no state the run needs: a worker that Playwright
 * replaces loses nothing.
 */
export interface OutcomeAnswer {
  outcome: CheckOutcome;
  /**
   * The runner's own reporter marks a failing check's result as failed (cli/playwright/host-reporter.ts),
   * so the test need not throw; a test that throws costs a new worker process.
   */
  reportedByHost: boolean;
  /** The outcome fails the gate by the verdict's rule (core/check/gating.ts): a SHOULD failure under fail-on must does not. */
  gating: boolean;
}

/** Playwright's selection as its runner saw it at onBegin (--grep, --shard). */
export interface PlanMessage {
  plan: string[];
  shard?: string;
}

export interface EngineHandlers {
  outcome(checkId: string): Promise<OutcomeAnswer>;
  /** The checks the run plans, once it has begun (none known yet: empty). */
  planned(): Promise<readonly string[]>;
  plan(message: PlanMessage): void;
  /** The checks as the tests need them (playwright/playwright-tests.ts CheckListing), as JSON. */
  listing(): string;
  /** The target's keys, for the runner's console reporter to mask (they never travel in the environment). */
  keys(): Secret[];
}

/** What the runner's global set-up receives before any test: the check listing and the keys to mask. */
export interface RunnerStart {
  listing: string;
  keys: Secret[];
}

/** The connections each engine server has open: a follower's stays open for its worker's life. */
const OPEN = new WeakMap<Server, Set<Socket>>();

export function serveOutcomes(path: string, handlers: EngineHandlers): Promise<Server> {
  const open = new Set<Socket>();
  const server = createServer((socket) => {
    open.add(socket);
    socket.on('close', () => open.delete(socket));
    socket.setEncoding('utf8');
    onLines(socket, (line) => {
      if (!line.startsWith('{')) return answerOn(socket, handlers, line);
      try {
        const message = JSON.parse(line) as PlanMessage | { listing: true } | { follow: true };
        if ('listing' in message)
          socket.write(`{"listing":${handlers.listing()},"keys":${JSON.stringify(handlers.keys())}}\n`);
        else if ('follow' in message) follow(socket, handlers);
        else {
          handlers.plan(message);
          socket.write('{"ok":true}\n');
        }
      } catch (e) {
        socket.write(`${JSON.stringify({ error: (e as Error)?.message ?? String(e) })}\n`);
      }
    });
    socket.on('error', () => socket.destroy());
  });
  OPEN.set(server, open);
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, () => resolve(server));
  });
}

/** Closes an engine server and the connections still open on it (a worker that outlives the run's end). */
export function closeEngineServer(server: Server): Promise<void> {
  for (const socket of OPEN.get(server) ?? []) socket.destroy();
  return new Promise((resolve) => server.close(() => resolve()));
}

/** A check's outcome written on `socket` when it has settled; an error names its check (a follower's answers come in any order). */
function answerOn(socket: Socket, handlers: EngineHandlers, checkId: string): void {
  handlers.outcome(checkId).then(
    (a) => socket.write(`${JSON.stringify(a)}\n`),
    (e: unknown) => socket.write(`${JSON.stringify({ error: (e as Error)?.message ?? String(e), checkId })}\n`),
  );
}

/** A follower's connection: the planned checks, then each one's outcome as it settles. */
function follow(socket: Socket, handlers: EngineHandlers): void {
  handlers.planned().then(
    (ids) => {
      socket.write(`${JSON.stringify({ planned: ids })}\n`);
      for (const id of ids) answerOn(socket, handlers, id);
    },
    (e: unknown) => socket.write(`${JSON.stringify({ error: (e as Error)?.message ?? String(e) })}\n`),
  );
}

/**
 * How long a client waits for the engine's socket to appear: the command starts Playwright first and
 * its engine while Playwright boots, so the first question may come before the engine listens.
 */
const CONNECT_WAIT_MS = 30_000;
const CONNECT_RETRY_MS = 25;

/** A connection to the engine's socket, tried again until it listens (or CONNECT_WAIT_MS pass). */
function connectToEngine(path: string): Promise<Socket> {
  const deadline = Date.now() + CONNECT_WAIT_MS;
  return new Promise((resolve, reject) => {
    const attempt = () => {
      const socket = createConnection(path);
      const refused = (e: NodeJS.ErrnoException) => {
        if ((e.code === 'ENOENT' || e.code === 'ECONNREFUSED') && Date.now() < deadline)
          setTimeout(attempt, CONNECT_RETRY_MS);
        else reject(e);
      };
      socket.once('error', refused);
      socket.once('connect', () => {
        socket.off('error', refused);
        socket.setEncoding('utf8');
        resolve(socket);
      });
    };
    attempt();
  });
}

/** Calls `onLine` with each line the socket receives. */
function onLines(socket: Socket, onLine: (line: string) => void): void {
  let buffered = '';
  socket.on('data', (chunk: string) => {
    buffered += chunk;
    let nl: number;
    while ((nl = buffered.indexOf('\n')) >= 0) {
      const line = buffered.slice(0, nl);
      buffered = buffered.slice(nl + 1);
      onLine(line);
    }
  });
}

/** One question, one answer, on a connection of its own. */
async function ask<T>(path: string, line: string): Promise<T> {
  const socket = await connectToEngine(path);
  return new Promise((resolve, reject) => {
    let answered = false;
    onLines(socket, (got) => {
      if (answered) return;
      answered = true;
      socket.end();
      const answer = JSON.parse(got) as T | { error: string };
      if (answer && typeof answer === 'object' && 'error' in answer) reject(new Error(answer.error));
      else resolve(answer as T);
    });
    socket.on('error', reject);
    socket.on('close', () => answered || reject(new Error("the run's engine closed the connection without an answer")));
    socket.write(`${line}\n`);
  });
}

type Waiter = { resolve: (a: OutcomeAnswer) => void; reject: (e: Error) => void };

/**
 * A worker's one connection to the run's engine: the outcomes of the checks the run plans come as
 * they settle and are kept for the worker's tests; a test whose check is not planned asks for it on
 * the same connection. A closed or failed connection fails every test still waiting, with its reason.
 */
export class OutcomeFollower {
  private readonly known = new Map<string, OutcomeAnswer>();
  private readonly waiting = new Map<string, Waiter[]>();
  private socket: Socket | undefined;
  private planned: ReadonlySet<string> = new Set();
  private failure: Error | undefined;
  /** Settles when the run's plan has come, or the connection failed. */
  private readonly ready: Promise<void>;
  private isReady!: () => void;

  constructor(path: string) {
    this.ready = new Promise((resolve) => (this.isReady = resolve));
    connectToEngine(path).then(
      (socket) => this.follow(socket),
      (e: Error) => this.fail(e),
    );
  }

  /** The check's outcome: kept, coming, or asked for now. */
  async outcome(checkId: string): Promise<OutcomeAnswer> {
    await this.ready;
    const known = this.known.get(checkId);
    if (known) return known;
    if (this.failure) throw this.failure;
    return new Promise((resolve, reject) => {
      const waiters = this.waiting.get(checkId) ?? [];
      if (waiters.length === 0 && !this.planned.has(checkId)) this.socket!.write(`${checkId}\n`);
      waiters.push({ resolve, reject });
      this.waiting.set(checkId, waiters);
    });
  }

  private follow(socket: Socket): void {
    this.socket = socket;
    // The worker ends when its tests are done, whatever the connection.
    socket.unref();
    onLines(socket, (line) =>
      this.receive(JSON.parse(line) as OutcomeAnswer | { planned: string[] } | { error: string; checkId?: string }),
    );
    socket.on('error', (e) => this.fail(e));
    socket.on('close', () => this.fail(new Error("the run's engine closed the connection")));
    socket.write('{"follow":true}\n');
  }

  private receive(message: OutcomeAnswer | { planned: string[] } | { error: string; checkId?: string }): void {
    if ('planned' in message) {
      this.planned = new Set(message.planned);
      this.isReady();
    } else if ('error' in message) {
      if (message.checkId === undefined) this.fail(new Error(message.error));
      else this.settle(message.checkId, (w) => w.reject(new Error(message.error)));
    } else {
      this.known.set(message.outcome.checkId, message);
      this.settle(message.outcome.checkId, (w) => w.resolve(message));
    }
  }

  private settle(checkId: string, each: (w: Waiter) => void): void {
    const waiters = this.waiting.get(checkId) ?? [];
    this.waiting.delete(checkId);
    for (const w of waiters) each(w);
  }

  private fail(e: Error): void {
    this.failure ??= e;
    this.isReady();
    for (const id of [...this.waiting.keys()]) this.settle(id, (w) => w.reject(this.failure!));
  }
}

export function askOutcome(path: string, checkId: string): Promise<OutcomeAnswer> {
  return ask<OutcomeAnswer>(path, checkId);
}

/**
 * The check listing, from the engine that loaded the checks (the runner then loads none of them), and
 * the target's keys: the runner starts before the command has read the target, so it learns them here.
 */
export function askRunnerStart(path: string): Promise<RunnerStart> {
  return ask<{ listing: unknown; keys: Secret[] }>(path, '{"listing":true}').then((a) => ({
    listing: JSON.stringify(a.listing),
    keys: a.keys,
  }));
}

export function sendPlan(path: string, message: PlanMessage): Promise<void> {
  return ask<{ ok: true }>(path, JSON.stringify(message)).then(() => undefined);
}

/** A fresh private directory for the engine's socket (the command names it before Playwright starts). */
export function engineSocketPath(): string {
  return join(mkdtempSync(join(tmpdir(), 'conformance-engine-')), 'engine.sock');
}
