/**
 * The reference behind a loopback server that turns requests away when too many come at once, as a
 * deployment behind a connection limit or a concurrency-based rate limiter does: the targets of
 * test/hostile/adaptive-concurrency.test.ts. The reference's own answers come from its handler
 * in-process (ReferenceServer.serve), held a few milliseconds so that requests sent together overlap.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { filesError, internsError } from '../../reference/errors.ts';
import type { ReferenceServer } from '../../reference/options.ts';
import { referenceTargetYaml } from '../../reference/target-file.ts';
import { writeTargetYaml } from './hostile-server.ts';

/** What the server does with a request it turns away, or with every answer it gives. */
export type Crowding =
  /** More than `over` requests in flight: 429 with Retry-After (7.1 and 8 rule 3 list 429 for a rate limit). */
  | { kind: 'too-many'; over: number; retryAfter: string }
  /** More than `over` requests in flight: the connection is reset, no answer. */
  | { kind: 'reset'; over: number }
  /** Every `every`th list-interns request answered 408 (4.3, 8 rule 4: "A 408 response exists for list interns"). */
  | { kind: 'interns-408'; every: number };

export interface CrowdedServer {
  baseUrl: string;
  /** The most requests it had in flight at once, and how many it turned away. */
  stats: { mostInFlight: number; turnedAway: number; received: number };
  /** A target file for the reference's fixtures at this server (the regional host stays the reference's). */
  targetFile: string;
  close(): Promise<void>;
}

/** How long each answer is held: enough for requests sent together to be in flight together. */
const HOLD_MS = 5;

export async function startCrowded(reference: ReferenceServer, crowding: Crowding): Promise<CrowdedServer> {
  let inFlight = 0;
  let internsCount = 0;
  const stats = { mostInFlight: 0, turnedAway: 0, received: 0 };
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  const server: Server = createServer((req, res) => {
    stats.received++;
    inFlight++;
    stats.mostInFlight = Math.max(stats.mostInFlight, inFlight);
    let counted = true;
    const done = () => {
      if (counted) inFlight--;
      counted = false;
    };
    res.on('close', done);
    const crowded = crowding.kind !== 'interns-408' && inFlight > crowding.over;
    if (crowded && crowding.kind === 'reset') {
      stats.turnedAway++;
      done();
      req.socket.resetAndDestroy();
      return;
    }
    const path = (req.url ?? '').split('?')[0] ?? '';
    const interns = path.endsWith('/interns') && ++internsCount;
    const timer = setTimeout(() => {
      timers.delete(timer);
      if (res.destroyed) return;
      if (crowded && crowding.kind === 'too-many') {
        stats.turnedAway++;
        const files = path.endsWith('/files');
        const body = JSON.stringify(
          files ? filesError(429).body : { error: { code: 429, message: 'Rate limit exceeded' } },
        );
        res.writeHead(429, { 'content-type': 'application/json', 'retry-after': crowding.retryAfter });
        res.end(body);
        return;
      }
      if (crowding.kind === 'interns-408' && interns && interns % crowding.every === 0) {
        stats.turnedAway++;
        res.writeHead(408, { 'content-type': 'application/json' });
        res.end(JSON.stringify(internsError(408, reference.options).body));
        return;
      }
      const w = reference.serve('main', { method: req.method, url: req.url, headers: req.headers });
      res.writeHead(w.status, w.headers);
      res.end(w.body);
    }, HOLD_MS);
    timers.add(timer);
  });
  server.keepAliveTimeout = 60_000;
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const baseUrl = `http://127.0.0.1:${port}/v1`;
  return {
    baseUrl,
    stats,
    targetFile: writeTargetYaml(referenceTargetYaml(reference).replace(reference.baseUrl, baseUrl)),
    close: async () => {
      for (const t of timers) clearTimeout(t);
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const s of sockets) s.destroy();
      await closed;
    },
  };
}
