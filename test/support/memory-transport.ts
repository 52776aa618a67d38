import type { ReferenceServer } from '../../reference/options.ts';
import { TransportError, type RawResponse, type Transport } from '../../core/http/transport.ts';

/**
 * A transport that hands each request to a started reference in-process (ReferenceServer.serve), as
 * its main or regional listener would answer it, without a connection: the self-test judges faults
 * and readings, which live in what the reference answers, not in HTTP. The HTTP path itself is the
 * command-line tests' and test/hostile/'s (NodeTransport against real sockets).
 */
export class MemoryTransport implements Transport {
  private readonly main: string;
  private readonly regional: string;

  constructor(private readonly server: ReferenceServer) {
    this.main = new URL(server.baseUrl).origin;
    this.regional = new URL(server.regionalBaseUrl).origin;
  }

  async get(url: URL, headers: Record<string, string>): Promise<RawResponse> {
    const host = url.origin === this.main ? 'main' : url.origin === this.regional ? 'regional' : undefined;
    if (!host) throw new TransportError(`connect ECONNREFUSED ${url.host} (not the reference started for this run)`);
    const authorization = Object.entries(headers).find(([k]) => k.toLowerCase() === 'authorization')?.[1];
    const w = this.server.serve(host, {
      method: 'GET',
      url: url.pathname + url.search,
      headers: authorization === undefined ? {} : { authorization },
    });
    return {
      status: w.status,
      headers: Object.fromEntries(Object.entries(w.headers).map(([k, v]) => [k.toLowerCase(), String(v)])),
      body: w.body,
    };
  }

  async close(): Promise<void> {}
}
