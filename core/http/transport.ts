import http from 'node:http';
import https from 'node:https';
import type { APIRequestContext } from '@playwright/test';
import { DEFAULTS } from '../run/run-settings.ts';

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
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

  constructor(private readonly limits: TransportLimits) {
    const maxSockets = Math.max(1, limits.connections ?? DEFAULTS.concurrency);
    this.agents = {
      'http:': new http.Agent({ keepAlive: true, maxSockets }),
      'https:': new https.Agent({ keepAlive: true, maxSockets }),
    };
  }

  get(url: URL, headers: Record<string, string>): Promise<RawResponse> {
    const { timeoutMs, bodyCapBytes } = this.limits;
    const lib = url.protocol === 'https:' ? https : http;
    const agent = url.protocol === 'https:' ? this.agents['https:'] : this.agents['http:'];
    return new Promise((resolve, reject) => {
      let settled = false;
      const finish = (err: Error | null, value?: RawResponse) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        if (err) reject(err);
        else resolve(value!);
      };
      const req = lib.request(url, { method: 'GET', headers, agent }, (res) => {
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
      });
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
            answered ? `connection broken while reading the response (${describe(e)})` : describe(e),
            answered || !!e.code?.startsWith('HPE_'),
            connectionFailureOf(e.code),
          ),
        ),
      );
      req.end();
    });
  }

  async close(): Promise<void> {
    this.agents['http:'].destroy();
    this.agents['https:'].destroy();
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
