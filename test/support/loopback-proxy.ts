import { createServer, request, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';

/** What the proxy was asked: the method, the request target (absolute form or CONNECT's authority), the credentials. */
export interface ProxyAsked {
  method: string;
  target: string;
  authorization: string | undefined;
}

export interface LoopbackProxy {
  /** http://127.0.0.1:PORT */
  origin: string;
  port: number;
  readonly asked: ProxyAsked[];
  close(): Promise<void>;
}

const MAX_CONNECTIONS = 64;

/**
 * A tiny forward proxy on loopback, for the proxy tests: an absolute-form GET is forwarded to the same
 * port on 127.0.0.1 whatever host it names (the tests' targets bear names that resolve nowhere), and a
 * CONNECT is tunnelled to that port on 127.0.0.1. It answers 407 when `credentials` are required and not sent.
 */
export async function startLoopbackProxy(credentials?: string): Promise<LoopbackProxy> {
  const asked: ProxyAsked[] = [];
  const sockets = new Set<Socket>();
  const expected = credentials ? `Basic ${Buffer.from(credentials).toString('base64')}` : undefined;
  const server: Server = createServer((req, res) => {
    const authorization = req.headers['proxy-authorization'];
    asked.push({ method: req.method ?? '', target: req.url ?? '', authorization });
    if (expected && authorization !== expected) return void res.writeHead(407).end();
    let url: URL;
    try {
      url = new URL(req.url ?? '');
    } catch {
      return void res.writeHead(400).end();
    }
    const headers = { ...req.headers };
    delete headers['proxy-authorization'];
    const up = request(
      { host: '127.0.0.1', port: url.port || 80, method: req.method, path: url.pathname + url.search, headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    up.on('error', () => (res.headersSent ? res.destroy() : res.writeHead(502).end()));
    req.pipe(up);
  });
  server.on('connect', (req, client: Socket, head: Buffer) => {
    const authorization = req.headers['proxy-authorization'];
    asked.push({ method: 'CONNECT', target: req.url ?? '', authorization });
    if (expected && authorization !== expected)
      return void client.end('HTTP/1.1 407 Proxy Authentication Required\r\n\r\n');
    const port = Number(/:(\d+)$/.exec(req.url ?? '')?.[1] ?? 443);
    const upstream = connect(port, '127.0.0.1', () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    sockets.add(upstream);
    upstream.on('close', () => sockets.delete(upstream));
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  server.maxConnections = MAX_CONNECTIONS;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    asked,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
