/**
 * A loopback proxy that holds every request `delayMs` before forwarding it to `to`: a deployment in
 * another region, for the bench's latency row. Bounded: bodies over BODY_CAP_BYTES are cut, each
 * upstream exchange ends at UPSTREAM_TIMEOUT_MS, and at most MAX_CONNECTIONS clients are served.
 *
 *   tsx bench/delay-proxy.ts --to http://127.0.0.1:8080 --delay 50   # prints "listening http://127.0.0.1:PORT"
 */
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';

const BODY_CAP_BYTES = 64 * 1024 * 1024;
const UPSTREAM_TIMEOUT_MS = 30_000;
const MAX_CONNECTIONS = 256;

export interface DelayProxy {
  /** http://127.0.0.1:PORT (no path): the target's paths are forwarded as they come. */
  origin: string;
  /** Requests forwarded so far. */
  readonly count: number;
  close(): Promise<void>;
}

export async function startDelayProxy(to: string, delayMs: number): Promise<DelayProxy> {
  const upstream = new URL(to);
  let count = 0;
  const server: Server = createServer((req, res) => {
    count++;
    setTimeout(() => {
      const up = request(
        {
          host: upstream.hostname,
          port: upstream.port,
          method: req.method,
          path: req.url,
          headers: { ...req.headers, host: upstream.host },
          timeout: UPSTREAM_TIMEOUT_MS,
        },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          let bytes = 0;
          answer.on('data', (chunk: Buffer) => {
            bytes += chunk.length;
            if (bytes > BODY_CAP_BYTES) return void (answer.destroy(), res.destroy());
            res.write(chunk);
          });
          answer.on('end', () => res.end());
          answer.on('error', () => res.destroy());
        },
      );
      up.on('timeout', () => up.destroy(new Error('upstream time-out')));
      up.on('error', () => (res.headersSent ? res.destroy() : res.writeHead(502).end()));
      req.pipe(up);
    }, delayMs);
  });
  server.maxConnections = MAX_CONNECTIONS;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    get count() {
      return count;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({ options: { to: { type: 'string' }, delay: { type: 'string' } } });
  if (!values.to || !/^\d{1,5}$/.test(values.delay ?? '')) {
    process.stderr.write('usage: tsx bench/delay-proxy.ts --to URL --delay MS\n');
    process.exit(2);
  }
  const proxy = await startDelayProxy(values.to, Number(values.delay));
  process.stdout.write(`listening ${proxy.origin}\n`);
  const stop = () => void proxy.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
