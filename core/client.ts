import { CannotJudge } from './errors.ts';
import { maskVolatileHeaders, truncateBody, type Exchange } from './evidence.ts';
import { Redactor } from './redact.ts';
import { RequestLog } from './request-log.ts';
import type { RunSettings } from './run-settings.ts';
import { secretsOf, type Target } from './target.ts';
import { TransportError, type Transport } from './transport.ts';

/** Which credential a request carries (section 5). `{ header }` sends a raw Authorization value. */
export type Auth = 'key' | 'restricted' | 'none' | { header: string };

export interface ApiResponse {
  status: number;
  headers: Record<string, string>;
  text: string;
  /** The parsed body, or undefined when it is not JSON (see jsonError). */
  json: unknown;
  jsonError?: string;
  exchange: Exchange;
}

export type Query = Record<string, string | number | undefined>;

/**
 * The only way checks reach the target: GET on the three documented paths under the configured base
 * URL (principle 4), within the run's request budget, rate limit and time-outs, with 429/503 retried
 * under a bounded back-off and every exchange kept, redacted, for the report.
 */
export class Client {
  readonly redactor: Redactor;
  /** Exchanges of the current check, newest last. */
  readonly exchanges: Exchange[] = [];
  private nextSlot = 0;
  check = '';

  constructor(
    private readonly target: Target,
    private readonly settings: RunSettings,
    private readonly transport: Transport,
    readonly log: RequestLog,
  ) {
    this.redactor = new Redactor(secretsOf(target));
  }

  /** 4.1 GET /containers/{container_id}/files */
  listContainerFiles(containerId: string, query: Query = {}, auth: Auth = 'key'): Promise<ApiResponse> {
    return this.get(`/containers/${encodeURIComponent(containerId)}/files`, query, auth);
  }

  /** 4.2 GET /models/{author}/{slug}/endpoints; model is `author/slug`. */
  listModelEndpoints(model: string, auth: Auth = 'key'): Promise<ApiResponse> {
    const [author = '', slug = ''] = model.split('/');
    return this.get(`/models/${encodeURIComponent(author)}/${encodeURIComponent(slug)}/endpoints`, {}, auth);
  }

  /** 4.3 GET /interns; query keys are the wire names (see internsQuery in core/api-helpers). */
  listInterns(query: Query = {}, auth: Auth = 'key', baseUrl = this.target.baseUrl): Promise<ApiResponse> {
    return this.get('/interns', query, auth, baseUrl);
  }

  private async get(path: string, query: Query, auth: Auth, baseUrl = this.target.baseUrl): Promise<ApiResponse> {
    const url = new URL(baseUrl.replace(/\/+$/, '') + path);
    for (const [k, v] of Object.entries(query)) if (v !== undefined) url.searchParams.append(k, String(v));
    const headers: Record<string, string> = { accept: 'application/json', 'user-agent': 'conformance-suite' };
    const authorization = this.authorization(auth);
    if (authorization !== undefined) headers['authorization'] = authorization;

    let retries = 0;
    for (;;) {
      this.spendBudget(url);
      await this.pace();
      const started = performance.now();
      let raw;
      try {
        raw = await this.transport.get(url, headers);
      } catch (e) {
        const ms = Math.round(performance.now() - started);
        const message = e instanceof TransportError ? e.message : String(e);
        const exchange = this.record(url, headers, undefined, ms, retries, message);
        this.log.append({ method: 'GET', url: url.toString(), status: null, ms, retry: retries > 0 ? 1 : 0, check: this.check, error: message });
        throw new CannotJudge('transport', `GET ${this.redactor.text(url.toString())}: ${message}`, [exchange]);
      }
      const ms = Math.round(performance.now() - started);
      const retryAfter = raw.headers['retry-after'];
      this.log.append({
        method: 'GET',
        url: url.toString(),
        status: raw.status,
        ms,
        retry: retries > 0 ? 1 : 0,
        check: this.check,
        ...(retryAfter ? { retryAfter } : {}),
      });
      if ((raw.status === 429 || raw.status === 503) && retries < this.settings.maxRetries) {
        retries++;
        await sleep(this.backoff(retries, retryAfter));
        continue;
      }
      const text = raw.body.toString('utf8');
      const exchange = this.record(url, headers, { status: raw.status, headers: raw.headers, text }, ms, retries);
      const response: ApiResponse = { status: raw.status, headers: raw.headers, text, json: undefined, exchange };
      try {
        response.json = text.length ? JSON.parse(text) : undefined;
        if (!text.length) response.jsonError = 'empty body';
      } catch (e) {
        response.jsonError = (e as Error).message;
      }
      // 8 rule 3: a 429 says nothing about the requirement being probed; it is never its failure.
      if (raw.status === 429 || raw.status === 503) {
        throw new CannotJudge('rate-limited', `target still answered ${raw.status} after ${retries} retries`, [exchange]);
      }
      return response;
    }
  }

  private authorization(auth: Auth): string | undefined {
    if (auth === 'none') return undefined;
    if (auth === 'key') return `Bearer ${this.target.apiKey}`;
    if (auth === 'restricted') {
      if (!this.target.restrictedApiKey) throw new Error('restricted key requested but the target file has no restrictedApiKey');
      return `Bearer ${this.target.restrictedApiKey}`;
    }
    return auth.header;
  }

  private spendBudget(url: URL): void {
    if (this.log.count >= this.settings.maxRequests) {
      throw new CannotJudge('budget', `request budget of ${this.settings.maxRequests} spent before GET ${url.pathname}`);
    }
  }

  private async pace(): Promise<void> {
    if (this.settings.maxRps <= 0) return;
    const now = Date.now();
    const wait = this.nextSlot - now;
    this.nextSlot = Math.max(now, this.nextSlot) + 1000 / this.settings.maxRps;
    if (wait > 0) await sleep(wait);
  }

  /** Retry-After (seconds or HTTP date) when given, else exponential from 200 ms; never above the cap. */
  private backoff(attempt: number, retryAfter: string | undefined): number {
    let ms = 200 * 2 ** (attempt - 1);
    if (retryAfter !== undefined) {
      const secs = Number(retryAfter);
      if (Number.isFinite(secs)) ms = secs * 1000;
      else if (!Number.isNaN(Date.parse(retryAfter))) ms = Date.parse(retryAfter) - Date.now();
    }
    return Math.min(Math.max(ms, 0), this.settings.retryCapMs);
  }

  private record(
    url: URL,
    headers: Record<string, string>,
    response: { status: number; headers: Record<string, string>; text: string } | undefined,
    durationMs: number,
    retries: number,
    error?: string,
  ): Exchange {
    const r = this.redactor;
    const exchange: Exchange = {
      request: { method: 'GET', url: r.text(url.toString()), headers: r.headers(headers) },
      durationMs,
      retries,
      ...(response
        ? { response: { status: response.status, headers: maskVolatileHeaders(r.headers(response.headers)), ...truncateBody(r.text(response.text)) } }
        : {}),
      ...(error ? { error: r.text(error) } : {}),
    };
    this.exchanges.push(exchange);
    if (this.exchanges.length > 50) this.exchanges.shift();
    return exchange;
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
