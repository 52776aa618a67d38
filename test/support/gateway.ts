import { createServer, request, type IncomingHttpHeaders } from 'node:http';

export interface Gateway {
  /** http://127.0.0.1:PORT, to write in place of the upstream's origin. */
  url: string;
  /** The headers and path of every request it was sent, in order. */
  seen: IncomingHttpHeaders[];
  paths: string[];
  close(): Promise<void>;
}

/**
 * A gateway on loopback in front of `upstream`, as a deployment's: a request carrying every header of
 * `required` (lower-case names) is forwarded, any other is refused with 403 before the service sees it.
 */
export async function startGateway(upstream: string, required: Record<string, string> = {}): Promise<Gateway> {
  const seen: IncomingHttpHeaders[] = [];
  const paths: string[] = [];
  const to = new URL(upstream);
  const server = createServer((req, res) => {
    seen.push(req.headers);
    paths.push(req.url ?? '');
    if (Object.entries(required).some(([name, value]) => req.headers[name] !== value))
      return void res.writeHead(403, { 'content-type': 'text/plain' }).end('refused by the gateway');
    const out = request(
      { host: to.hostname, port: to.port, path: req.url, method: req.method, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    out.on('error', () => res.destroy());
    req.pipe(out);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    seen,
    paths,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
