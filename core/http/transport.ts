import http from 'node:http';
import https from 'node:https';
import type { Duplex } from 'node:stream';
import tls from 'node:tls';
import type { APIRequestContext } from '@playwright/test';
import { DEFAULTS } from '../run/run-settings.ts';
import { type ProxyServer, type ProxyEnv, proxyFor } from './proxy.ts';

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  /** Its entry in the run's recording (core/http/recorder.ts), when the transport records: what evidence.har's `harEntry` names. */
  recordedEntry?: number;
}

/**
 * A connection the target refused or reset: what a server does when more requests come at once than it
 * takes (its connection limit, its accept queue), as well as when it is down.
 */
export type ConnectionFailure = 'refused' | 'reset';

/** A request that got no usable answer: time-out, refused or reset connection, or a body over the cap. */
export class TransportError extends Error {
  override readonly name = 'TransportError';
  /** `answered`: the target did send a status line and headers (the body then broke): it is reachable. */
  constructor(
    message: string,
    readonly answered = false,
    readonly connection?: ConnectionFailure,
  ) {
    super(message);
  }

  /** Its entry in the run's recording, when the transport records (a request without an answer is recorded too). */
  recordedEntry?: number;
}

/** Whether a Node error code is a refused or a reset connection. */
function connectionFailureOf(code: string | undefined): ConnectionFailure | undefined {
  if (code === 'ECONNREFUSED') return 'refused';
  if (code === 'ECONNRESET' || code === 'EPIPE') return 'reset';
  return undefined;
}

export interface TransportLimits {
  timeoutMs: number;
  bodyCapBytes: number;
  /**
   * Connections to one origin at most (default: the default concurrency): at least the run's
   * concurrency, so that no request waits for a socket while its time-out runs.
   */
  connections?: number;
}

/**
 * The transport's own options, for the suite's tests: never set from the environment or the command line.
 * `env` is where the proxy variables are read (process.env by default). `proxyLoopback` sends loopback
 * targets through the proxy too (core/http/proxy.ts: they never are otherwise), for tests that can only
 * reach loopback; `ca` the certificates a test's own TLS target is signed with.
 */
export interface TransportOptions {
  env?: ProxyEnv;
  proxyLoopback?: boolean;
  ca?: string;
}

/** Sends one GET and never follows a redirect (a redirect is reported, and the key never leaves the origin). */
export interface Transport {
  get(url: URL, headers: Record<string, string>): Promise<RawResponse>;
  close(): Promise<void>;
}

/**
 * node:http transport: streams the body and aborts past the cap, so a target that answers hundreds of
 * megabytes (or never stops) cannot exhaust the suite's memory; APIRequestContext buffers whole bodies.
 */
export class NodeTransport implements Transport {
  private readonly agents: { 'http:': http.Agent; 'https:': https.Agent };
  /** Agents to proxies: absolute-form requests to a proxy (http targets), CONNECT tunnels (https targets). */
  private readonly proxyAgents = new Map<string, http.Agent>();
  private readonly tunnels = new Set<http.ClientRequest>();
  private readonly maxSockets: number;
  private readonly env: ProxyEnv;

  constructor(
    private readonly limits: TransportLimits,
    private readonly options: TransportOptions = {},
  ) {
    this.maxSockets = Math.max(1, limits.connections ?? DEFAULTS.concurrency);
    this.env = options.env ?? process.env;
    const maxSockets = this.maxSockets;
    this.agents = {
      'http:': new http.Agent({ keepAlive: true, maxSockets }),
      'https:': new https.Agent({ keepAlive: true, maxSockets, ...(options.ca ? { ca: options.ca } : {}) }),
    };
  }

  get(url: URL, headers: Record<string, string>): Promise<RawResponse> {
    const { timeoutMs, bodyCapBytes } = this.limits;
    const proxy = proxyFor(url, this.env, this.options.proxyLoopback);
    if (proxy && 'unusable' in proxy) return Promise.reject(new TransportError(proxy.unusable));
    const lib = url.protocol === 'https:' ? https : http;
    const agent = url.protocol === 'https:' ? this.agents['https:'] : this.agents['http:'];
    const through = proxy ? ` (through the proxy ${proxy.hostPort})` : '';
    return new Promise((resolve, reject) => {
      let settled = false;
      const finish = (err: Error | null, value?: RawResponse) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        if (err) reject(err);
        else resolve(value!);
      };
      const onResponse = (res: http.IncomingMessage) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > bodyCapBytes) {
            // Settle first: destroying the response emits 'aborted', which would name a reset instead.
            finish(
              new TransportError(`response body larger than the cap of ${bodyCapBytes} bytes; reading stopped`, true),
            );
            res.destroy();
            req.destroy();
            return;
          }
          chunks.push(chunk);
        });
        res.on('end', () => {
          const flat: Record<string, string> = {};
          for (const [k, v] of Object.entries(res.headers))
            if (v !== undefined) flat[k] = Array.isArray(v) ? v.join(', ') : v;
          finish(null, { status: res.statusCode ?? 0, headers: flat, body: Buffer.concat(chunks) });
        });
        res.on('error', (e: Error & { code?: string }) =>
          finish(
            new TransportError(
              `connection broken while reading the response (${describe(e)})`,
              true,
              connectionFailureOf(e.code),
            ),
          ),
        );
        res.on('aborted', () =>
          finish(new TransportError('connection reset while reading the response', true, 'reset')),
        );
      };
      const req = proxy
        ? this.proxiedRequest(url, headers, proxy, onResponse)
        : lib.request(url, { method: 'GET', headers, agent }, onResponse);
      let answered = false;
      const timer = setTimeout(() => {
        req.destroy();
        finish(new TransportError(`no complete answer within ${timeoutMs} ms`, answered));
      }, timeoutMs);
      req.on('response', () => (answered = true));
      // A parse error (HPE_*) means the target did answer, with something unreadable: reachable.
      req.on('error', (e: Error & { code?: string }) =>
        finish(
          new TransportError(
            (answered ? `connection broken while reading the response (${describe(e)})` : describe(e)) + through,
            answered || !!e.code?.startsWith('HPE_'),
            connectionFailureOf(e.code),
          ),
        ),
      );
      req.end();
    });
  }

  /**
   * A GET through a proxy, as curl sends it: an http target is asked in absolute form of the proxy; an
   * https target through a CONNECT tunnel, then TLS to the target with its own name and the usual
   * certificate checks. The credentials go in Proxy-Authorization, never in the headers kept as evidence.
   */
  private proxiedRequest(
    url: URL,
    headers: Record<string, string>,
    proxy: ProxyServer,
    onResponse: (res: http.IncomingMessage) => void,
  ): http.ClientRequest {
    if (url.protocol === 'https:')
      return https.request(url, { method: 'GET', headers, agent: this.tunnelAgent(proxy) }, onResponse);
    const sent: Record<string, string> = { ...headers, host: url.host };
    if (proxy.authorization) sent['proxy-authorization'] = proxy.authorization;
    const agent = this.proxyAgent(
      `http ${proxy.hostPort}`,
      () => new http.Agent({ keepAlive: true, maxSockets: this.maxSockets }),
    );
    return http.request(
      { host: proxy.hostname, port: proxy.port, method: 'GET', path: url.href, headers: sent, agent },
      onResponse,
    );
  }

  private proxyAgent(key: string, make: () => http.Agent): http.Agent {
    let agent = this.proxyAgents.get(key);
    if (!agent) {
      agent = make();
      this.proxyAgents.set(key, agent);
    }
    return agent;
  }

  /** An https agent whose connections are CONNECT tunnels through the proxy, each bounded by the request time-out. */
  private tunnelAgent(proxy: ProxyServer): http.Agent {
    const { timeoutMs } = this.limits;
    const tunnels = this.tunnels;
    const ca = this.options.ca;
    return this.proxyAgent(`https ${proxy.hostPort} ${proxy.authorization ?? ''}`, () => {
      const agent = new https.Agent({ keepAlive: true, maxSockets: this.maxSockets, ...(ca ? { ca } : {}) });
      // node:http's Agent takes a connection made later through the callback form of createConnection.
      (agent as unknown as { createConnection: unknown }).createConnection = (
        options: tls.ConnectionOptions & { host?: string; port?: number; servername?: string },
        done: (err: Error | null, socket?: Duplex) => void,
      ) => {
        const authority = `${options.host?.includes(':') ? `[${options.host}]` : options.host}:${options.port ?? 443}`;
        const headers: Record<string, string> = { host: authority };
        if (proxy.authorization) headers['proxy-authorization'] = proxy.authorization;
        const connect = http.request({
          host: proxy.hostname,
          port: proxy.port,
          method: 'CONNECT',
          path: authority,
          headers,
          agent: false,
          timeout: timeoutMs,
        });
        tunnels.add(connect);
        let called = false;
        const once = (err: Error | null, socket?: Duplex) => {
          tunnels.delete(connect);
          if (called) return void socket?.destroy();
          called = true;
          done(err, socket);
        };
        connect.on('connect', (res, socket) => {
          if (res.statusCode !== 200) {
            socket.destroy();
            return once(
              new Error(`the proxy ${proxy.hostPort} refused the tunnel to ${authority} (HTTP ${res.statusCode})`),
            );
          }
          const secure = tls.connect({ ...options, socket, servername: options.servername || options.host });
          once(null, secure);
        });
        connect.on('timeout', () =>
          connect.destroy(new Error(`the proxy ${proxy.hostPort} opened no tunnel within ${timeoutMs} ms`)),
        );
        connect.on('error', (e) => once(e));
        connect.end();
        return undefined;
      };
      return agent;
    });
  }

  async close(): Promise<void> {
    this.agents['http:'].destroy();
    this.agents['https:'].destroy();
    for (const agent of this.proxyAgents.values()) agent.destroy();
    for (const connect of this.tunnels) connect.destroy();
  }
}

/** Playwright's APIRequestContext (the `request` fixture): same contract, but bodies are not capped. */
export class PlaywrightTransport implements Transport {
  constructor(
    private readonly request: APIRequestContext,
    private readonly limits: TransportLimits,
  ) {}

  async get(url: URL, headers: Record<string, string>): Promise<RawResponse> {
    try {
      const res = await this.request.get(url.toString(), {
        headers,
        maxRedirects: 0,
        timeout: this.limits.timeoutMs,
        failOnStatusCode: false,
      });
      const body = await res.body();
      if (body.length > this.limits.bodyCapBytes)
        throw new TransportError(`response body larger than the cap of ${this.limits.bodyCapBytes} bytes`, true);
      return { status: res.status(), headers: res.headers(), body };
    } catch (e) {
      if (e instanceof TransportError) throw e;
      const message = (e as Error).message;
      const connection = /ECONNREFUSED/.test(message)
        ? 'refused'
        : /ECONNRESET|socket hang up/.test(message)
          ? 'reset'
          : undefined;
      throw new TransportError(message.split('\n')[0] ?? 'request failed', false, connection);
    }
  }

  async close(): Promise<void> {}
}

function describe(e: Error & { code?: string }): string {
  switch (e.code) {
    case 'ECONNREFUSED':
      return 'connection refused';
    case 'ECONNRESET':
      return 'connection reset by the target';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'host name does not resolve';
    case 'ETIMEDOUT':
      return 'connection timed out';
    default:
      // Node reads at most http.maxHeaderSize bytes of headers (--max-http-header-size): named, not "not HTTP".
      if (e.code === 'HPE_HEADER_OVERFLOW')
        return `the response headers are larger than the ${http.maxHeaderSize} bytes the suite reads (HPE_HEADER_OVERFLOW)`;
      // llhttp's parse errors: the target answered something that is not HTTP/1.1.
      if (e.code?.startsWith('HPE_')) return `the answer is not valid HTTP (${e.code})`;
      return e.code ? `${e.code}: ${e.message}` : e.message;
  }
}
