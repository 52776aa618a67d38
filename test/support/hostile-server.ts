/**
 * A small, configurable, misbehaving HTTP server on 127.0.0.1 (node:http only): the targets of the
 * hostile-target tests (test/hostile/). Every request is recorded with its headers, so a test can
 * say what the suite sent; every response records how many bytes it wrote and whether the client
 * went away, so a test can say that the server stopped writing an endless body.
 */
import {
  createServer,
  request as httpRequest,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import { mkdtempSync, writeFileSync } from 'node:fs';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseTarget, type Target } from '../../core/target/target.ts';
import type { CliRun } from './harness.ts';

export interface Recorded {
  method: string;
  /** Request target as sent (path and query). */
  url: string;
  headers: IncomingHttpHeaders;
  /** Date.now() when the request arrived. */
  at: number;
}

export interface Sent {
  url: string;
  /** Body bytes the server wrote (or queued) for this response. */
  bytes: number;
  /** The client closed the connection before the response was complete. */
  clientClosed: boolean;
  /** The server wrote the whole response. */
  ended: boolean;
  /** `bytes` when the connection closed before the response was complete: nothing is written after. */
  bytesWhenClosed?: number;
}

/** What the server does with one request. */
export type Action =
  /** Accept the request and never answer. */
  | { kind: 'hang' }
  /** Wait, then do `then` (an answer after the client's time-out). */
  | { kind: 'delay'; ms: number; then: Action }
  | { kind: 'json'; status?: number; body: unknown; headers?: Record<string, string> }
  /** Any body; Content-Type in `headers` (default application/json). */
  | { kind: 'raw'; status?: number; body: string; headers?: Record<string, string> }
  /** A body that never ends (bounded here by ENDLESS_LIMIT, far above any cap of the suite). */
  | { kind: 'endless'; status?: number; headers?: Record<string, string> }
  /** Headers and part of the body, then a TCP reset. */
  | { kind: 'reset'; partialBody: string }
  | { kind: 'redirect'; status?: number; location: string }
  /** Bytes that are not HTTP at all. */
  | { kind: 'garbage'; bytes: string }
  /** Forward to another server (the reference), optionally editing the JSON it answers. */
  | { kind: 'proxy'; to: string; edit?: (json: unknown, status: number) => unknown };

export type Responder = (req: Recorded, index: number) => Action;

export interface HostileServer {
  /** http://127.0.0.1:PORT/v1 */
  baseUrl: string;
  origin: string;
  received: Recorded[];
  sent: Sent[];
  /** Stops accepting connections (later connections are refused) and drops the open ones. */
  stopListening(): Promise<void>;
  close(): Promise<void>;
}

/** An endless body stops here even if the client never goes away (the test's own safety bound). */
export const ENDLESS_LIMIT = { bytes: 2 * 1024 ** 3, ms: 60_000 };
const CHUNK = Buffer.alloc(64 * 1024, '[{"a":1},');

export async function startHostile(respond: Responder | Action): Promise<HostileServer> {
  const responder: Responder = typeof respond === 'function' ? respond : () => respond;
  const received: Recorded[] = [];
  const sent: Sent[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const sockets = new Set<Socket>();
  let listening = true;

  const later = (ms: number, fn: () => void) => {
    const t = setTimeout(() => {
      timers.delete(t);
      fn();
    }, ms);
    timers.add(t);
  };

  const act = (action: Action, req: IncomingMessage, res: ServerResponse, record: Sent): void => {
    const head = (status: number, headers: Record<string, string>) => {
      if (!res.headersSent && !res.destroyed) res.writeHead(status, headers);
    };
    const end = (status: number, headers: Record<string, string>, body: string) => {
      if (res.destroyed) return;
      const buf = Buffer.from(body, 'utf8');
      head(status, { 'content-length': String(buf.length), ...headers });
      record.bytes += buf.length;
      res.end(buf, () => (record.ended = true));
    };
    switch (action.kind) {
      case 'hang':
        return;
      case 'delay':
        return later(action.ms, () => act(action.then, req, res, record));
      case 'json':
        return end(
          action.status ?? 200,
          { 'content-type': 'application/json', ...action.headers },
          JSON.stringify(action.body),
        );
      case 'raw':
        return end(action.status ?? 200, { 'content-type': 'application/json', ...action.headers }, action.body);
      case 'redirect':
        return end(
          action.status ?? 302,
          { location: action.location, 'content-type': 'text/plain' },
          `see ${action.location}`,
        );
      case 'garbage':
        res.socket?.end(action.bytes);
        return;
      case 'reset': {
        head(200, { 'content-type': 'application/json', 'content-length': String(action.partialBody.length * 4) });
        record.bytes += Buffer.byteLength(action.partialBody);
        res.write(action.partialBody);
        return later(20, () => res.socket?.resetAndDestroy());
      }
      case 'endless': {
        head(action.status ?? 200, { 'content-type': 'application/json', ...action.headers });
        const started = Date.now();
        // Writes while the socket takes it, waits for 'drain' otherwise; stops when the client goes.
        const pump = () => {
          while (!res.destroyed && !record.clientClosed) {
            if (record.bytes >= ENDLESS_LIMIT.bytes || Date.now() - started > ENDLESS_LIMIT.ms) {
              res.destroy();
              return;
            }
            record.bytes += CHUNK.length;
            if (!res.write(CHUNK)) {
              res.once('drain', pump);
              return;
            }
          }
        };
        res.write('[');
        pump();
        return;
      }
      case 'proxy': {
        const target = new URL(action.to.replace(/\/+$/, '') + (req.url ?? '/').replace(/^\/v1/, ''));
        const headers = { ...req.headers, host: target.host };
        const upstream = httpRequest(target, { method: req.method ?? 'GET', headers }, (up) => {
          const chunks: Buffer[] = [];
          up.on('data', (c: Buffer) => chunks.push(c));
          up.on('end', () => {
            let text = Buffer.concat(chunks).toString('utf8');
            if (action.edit) text = JSON.stringify(action.edit(JSON.parse(text), up.statusCode ?? 0));
            const h: Record<string, string> = {};
            for (const [k, v] of Object.entries(up.headers))
              if (typeof v === 'string' && k !== 'content-length' && k !== 'connection' && k !== 'keep-alive') h[k] = v;
            end(up.statusCode ?? 502, h, text);
          });
        });
        upstream.on('error', () => res.destroy());
        upstream.end();
        return;
      }
    }
  };

  const server = createServer((req, res) => {
    const rec: Recorded = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, at: Date.now() };
    const index = received.length;
    received.push(rec);
    const record: Sent = { url: rec.url, bytes: 0, clientClosed: false, ended: false };
    sent.push(record);
    res.on('close', () => {
      if (!res.writableFinished) {
        record.clientClosed = true;
        record.bytesWhenClosed = record.bytes;
      }
    });
    act(responder(rec, index), req, res, record);
  });
  server.keepAliveTimeout = 60_000;
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;

  const stopListening = async (): Promise<void> => {
    if (!listening) return;
    listening = false;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    for (const s of sockets) s.destroy();
    await closed;
  };
  return {
    baseUrl: `${origin}/v1`,
    origin,
    received,
    sent,
    stopListening,
    close: async () => {
      for (const t of timers) clearTimeout(t);
      timers.clear();
      await stopListening();
    },
  };
}

/** `first` for the first n requests (the preflight is request 0), `then` for the rest. */
export function firstThen(n: number, first: Action, then: Action): Responder {
  return (_req, i) => (i < n ? first : then);
}

/** The keys of hostile targets: only ever in the environment, never in the target file. */
export const HOSTILE_KEYS = {
  HOSTILE_API_KEY: 'hostile-management-key-7f3a9c1e5b2d4680aa11',
  HOSTILE_RESTRICTED_KEY: 'hostile-restricted-key-2c8e6a4f0b9d1357bb22',
} as const;

/** A model-endpoints answer that is valid enough for the preflight (any HTTP answer would do). */
export const OK_JSON: Action = { kind: 'json', body: { data: {} } };

/**
 * Writes a hand-written target file for a server (keys as ${VAR}, read from HOSTILE_KEYS) and
 * returns its path. `extra` lines are appended; `edit` rewrites the text (misspellings, literals).
 */
export function writeTarget(baseUrl: string, opts: { edit?: (yaml: string) => string; name?: string } = {}): string {
  const yaml = targetYaml(baseUrl);
  const dir = mkdtempSync(join(tmpdir(), 'hostile-target-'));
  const file = join(dir, opts.name ?? 'target.yaml');
  writeFileSync(file, opts.edit ? opts.edit(yaml) : yaml);
  return file;
}

/** The target a hostile server is described by, parsed as the suite parses it (for in-process clients). */
export function hostileTarget(baseUrl: string): Target {
  return parseTarget(targetYaml(baseUrl), 'target.yaml', { env: { ...HOSTILE_KEYS } });
}

function targetYaml(baseUrl: string): string {
  return [
    `baseUrl: ${baseUrl}`,
    'apiKey: ${HOSTILE_API_KEY}',
    'restrictedApiKey: ${HOSTILE_RESTRICTED_KEY}',
    'containerFiles:',
    '  containerId: cntr_hostile',
    'modelEndpoints:',
    '  model: hostile/model',
    'interns:',
    '  workspaceId: 00000000-0000-4000-8000-000000000001',
    '  params: { limit: limit, status: status, workspace: workspace_id }',
    '',
  ].join('\n');
}

/** Writes a target file with the given text (e.g. the reference's, pointed at a proxy) and returns its path. */
export function writeTargetYaml(yaml: string): string {
  const file = join(mkdtempSync(join(tmpdir(), 'hostile-target-')), 'target.yaml');
  writeFileSync(file, yaml);
  return file;
}

/** Lines of the console that look like a stack trace frame. */
export function stackLines(run: Pick<CliRun, 'stdout' | 'stderr'>): string[] {
  return `${run.stdout}\n${run.stderr}`.split('\n').filter((l) => /^\s{4}at /.test(l));
}

/** The non-empty lines of stderr (a refused run prints exactly one). */
export function stderrLines(run: Pick<CliRun, 'stderr'>): string[] {
  return run.stderr.split('\n').filter((l) => l.trim() !== '' && !l.startsWith('npm warn'));
}
