import { CannotJudge } from './errors.ts';
import { excerpt, excerptHeaders, maskVolatileHeaders, truncateBody, type Exchange } from './evidence.ts';
import { secretsOf } from './mask.ts';
import { Redactor } from './redact.ts';
import { RequestLog } from './request-log.ts';
import { decodeJsonBody, firstDuplicateKey, type JsonBodyFacts } from './json-body.ts';
import { TextMemo } from './text-memo.ts';
import type { SeenResponse } from './judge.ts';
import type { RunSettings } from './run-settings.ts';
import type { Target } from './target.ts';
import { TransportError, type Transport } from './transport.ts';

/** An Authorization value built from the target's key, with the forms derived from it to redact. */
export interface KeyHeader {
  header: string;
  derived?: Array<{ value: string; placeholder: string }>;
}

/**
 * Which credential a request carries (section 5). `{ header }` sends a raw Authorization value;
 * `{ fromKey }` builds one from the real key (the key under another scheme), which checks never see.
 */
export type Auth = 'key' | 'restricted' | 'none' | { header: string } | { fromKey: (key: string) => KeyHeader };

export interface ApiResponse extends JsonBodyFacts {
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
 * After this many requests in a row without a usable answer (time-out, refused or reset connection,
 * body over the cap, 429/503 after every retry) the run sends nothing more: a target that stopped
 * answering costs this many request time-outs, not one per remaining request.
 */
export const CONSECUTIVE_FAILURE_LIMIT = 3;

/**
 * The longest URL the suite sends. RFC 9110 4.1 recommends that recipients support 8000 octets; a
 * value the target hands back (a cursor of megabytes) would otherwise be sent, masked, logged and
 * judged again with every request that carries it. Longer is not sent: the check cannot be judged.
 */
export const MAX_URL_CHARS = 64 * 1024;

function refuseLongUrl(url: URL, redactor: Redactor): void {
  const length = url.href.length;
  if (length <= MAX_URL_CHARS) return;
  const names = [...new Set(url.searchParams.keys())].map((k) => excerpt(redactor.text(k), 100)).join(', ');
  throw new CannotJudge('unreadable', `GET ${excerpt(redactor.text(url.pathname), 200)}: the URL would be ${length} characters long (query parameters ${names}: a value the target sent, such as a cursor?), over the ${MAX_URL_CHARS} the suite sends; not sent (RFC 9110 4.1 recommends 8000 octets)`);
}

/**
 * The state of one run, in memory, shared by every check of the run: the request log (the budget
 * counts it), the pace, the time spent waiting on 429/503, and why the run stopped sending, if it did.
 */
export class RunState {
  readonly log = new RequestLog();
  failuresInARow = 0;
  /** Time spent waiting before 429/503 retries in the whole run: a target that limits now and then still spends it. */
  rateLimitedWaitMs = 0;
  nextSlot = 0;
  stopped: string | undefined;
}

/** A response as the run's whole-run judgements see it (core/judge.ts), handed to the engine as it arrives. */
export type ResponseListener = (seen: SeenResponse) => void;

/**
 * The only way checks reach the target: GET on the three documented paths under the configured base
 * URL (principle 4), within the run's request budget, rate limit and time-outs, with 429/503 retried
 * under a bounded back-off and every exchange kept, redacted, for the report.
 */
export class Client {
  readonly redactor: Redactor;
  /** Exchanges of the current check, newest last. */
  readonly exchanges: Exchange[] = [];
  check = '';
  /** Told of every response, whichever check sent it (the engine's whole-run judgements). */
  onResponse: ResponseListener | undefined;
  /** A body received again has the duplicate name it had (core/text-memo.ts). */
  private readonly duplicateKeys = new TextMemo<string | undefined>();

  constructor(
    private readonly target: Target,
    private readonly settings: RunSettings,
    private readonly transport: Transport,
    readonly state: RunState = new RunState(),
  ) {
    this.redactor = new Redactor(secretsOf(target));
  }

  get log(): RequestLog {
    return this.state.log;
  }

  /** 4.1 GET /containers/{container_id}/files */
  listContainerFiles(containerId: string, query: Query = {}, auth: Auth = 'key'): Promise<ApiResponse> {
    return this.get({ operation: 'listContainerFiles', pathParams: { container_id: containerId } }, `/containers/${encodeURIComponent(containerId)}/files`, query, auth);
  }

  /** 4.2 GET /models/{author}/{slug}/endpoints; model is `author/slug`. */
  listModelEndpoints(model: string, auth: Auth = 'key'): Promise<ApiResponse> {
    const [author = '', slug = ''] = model.split('/');
    return this.get({ operation: 'listModelEndpoints', pathParams: { author, slug } }, `/models/${encodeURIComponent(author)}/${encodeURIComponent(slug)}/endpoints`, {}, auth);
  }

  /** 4.3 GET /interns; query keys are the wire names (see internsQuery in core/api-helpers). */
  listInterns(query: Query = {}, auth: Auth = 'key', baseUrl = this.target.baseUrl): Promise<ApiResponse> {
    return this.get({ operation: 'listInterns', pathParams: {} }, '/interns', query, auth, baseUrl);
  }

  private async get(op: Pick<SeenResponse, 'operation' | 'pathParams'>, path: string, query: Query, auth: Auth, baseUrl = this.target.baseUrl): Promise<ApiResponse> {
    const url = this.documentedUrl(path, baseUrl);
    for (const [k, v] of Object.entries(query)) if (v !== undefined) url.searchParams.append(k, String(v));
    refuseLongUrl(url, this.redactor);
    const headers: Record<string, string> = { accept: 'application/json', 'user-agent': 'conformance-suite' };
    const authorization = this.authorization(auth);
    if (authorization !== undefined) headers['authorization'] = authorization;

    let retries = 0;
    for (;;) {
      this.refuseIfStopped();
      this.spendBudget(url);
      await this.pace();
      const started = performance.now();
      let raw;
      try {
        raw = await this.transport.get(url, headers);
      } catch (e) {
        const ms = Math.round(performance.now() - started);
        // Redacted: a transport's message may quote the request (and so the key).
        const message = this.redactor.text(e instanceof TransportError ? e.message : String(e));
        const exchange = this.record(url, headers, undefined, ms, retries, message);
        this.log.append({ method: 'GET', url: excerpt(this.redactor.text(url.toString())), status: null, ms, retry: retries > 0 ? 1 : 0, check: this.check, error: message });
        // The run stopped while this request was in flight (its transport closed): cut short, not the target's failure.
        if (this.state.stopped) throw new CannotJudge('budget', `cut short: ${this.state.stopped}`, [exchange]);
        const failure = `GET ${this.redactor.text(url.pathname)}: ${message}`;
        this.noteFailure(failure);
        throw new CannotJudge('transport', `GET ${this.redactor.text(url.toString())}: ${message}`, [exchange]);
      }
      const ms = Math.round(performance.now() - started);
      const retryAfter = raw.headers['retry-after'];
      this.log.append({
        method: 'GET',
        // Bounded like all evidence (principle 4): a cursor of megabytes is not kept once per request.
        url: excerpt(this.redactor.text(url.toString())),
        status: raw.status,
        ms,
        retry: retries > 0 ? 1 : 0,
        check: this.check,
        ...(retryAfter ? { retryAfter } : {}),
      });
      const transient = isTransient(op.operation, raw.status);
      // Redacted before any check sees it: a target that echoes the key cannot put it in a message.
      // Strict UTF-8 (RFC 8259 8.1), redacted before it is parsed: a target that echoes the key
      // cannot put it in a message, a parsed value or an evidence body.
      const body = decodeJsonBody(raw.body, (t) => this.redactor.text(t), (t) => this.duplicateKeys.of(t, firstDuplicateKey));
      const text = body.text;
      const responseHeaders = this.redactor.headers(raw.headers);
      const exchange = this.record(url, headers, { status: raw.status, headers: responseHeaders, text }, ms, retries);
      const response: ApiResponse = {
        status: raw.status,
        headers: responseHeaders,
        text,
        json: body.json,
        exchange,
        ...(body.jsonError !== undefined ? { jsonError: body.jsonError } : {}),
        ...(body.invalidUtf8Offset !== undefined ? { invalidUtf8Offset: body.invalidUtf8Offset } : {}),
        ...(body.duplicateKey !== undefined ? { duplicateKey: body.duplicateKey } : {}),
      };
      const seen: SeenResponse = {
        ...op,
        check: this.check,
        status: raw.status,
        json: response.json,
        text,
        query: Object.fromEntries(url.searchParams),
        auth: typeof auth === 'string' ? auth : 'other',
        ...(op.operation === 'listInterns' && auth === 'key' ? { interns: { keyWorkspace: this.target.interns.workspaceId, filterNamed: this.target.interns.params !== undefined } } : {}),
        ...(baseUrl !== this.target.baseUrl ? { regional: true } : {}),
        exchange,
        ...(body.invalidUtf8Offset !== undefined ? { invalidUtf8Offset: body.invalidUtf8Offset } : {}),
        ...(body.duplicateKey !== undefined ? { duplicateKey: body.duplicateKey } : {}),
      };
      // A transient answer is a response like any other for the whole-run judges (its error body,
      // 7.1 / 7.3), then retried: it is never the answer of the check that happened to receive it.
      if (transient && retries < this.settings.maxRetries) {
        this.onResponse?.(seen);
        retries++;
        await this.waitRateLimited(this.backoff(retries, retryAfter), url);
        continue;
      }
      // 8 rules 3 and 4: a 429, 503 or (list interns) 408 says nothing about the requirement being
      // probed; it is never its failure. Persisting, it leaves the check unable to judge.
      if (transient) {
        this.onResponse?.(seen);
        const after = retryAfter !== undefined ? ` (Retry-After: ${this.redactor.text(retryAfter).slice(0, 40)})` : '';
        const message = `target still answered ${raw.status} after ${retries} retries${after}`;
        this.noteFailure(`GET ${this.redactor.text(url.pathname)}: ${message}`);
        throw new CannotJudge('rate-limited', message, [exchange]);
      }
      this.noteAnswer();
      this.onResponse?.(seen);
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
    if ('header' in auth) return auth.header;
    const built = auth.fromKey(this.target.apiKey);
    this.redactor.add(built.derived ?? []);
    return built.header;
  }

  /**
   * The URL of a documented path under one of the target's base URLs, or a suite error. A path
   * parameter `.` or `..` would be resolved away by URL parsing and the request would leave the
   * documented path (principle 4): refused, as is any base URL the target file does not name.
   */
  private documentedUrl(path: string, baseUrl: string): URL {
    const base = baseUrl.replace(/\/+$/, '');
    const allowed = [this.target.baseUrl, this.target.interns.regionalBaseUrl].filter((b): b is string => !!b).map((b) => b.replace(/\/+$/, ''));
    if (!allowed.includes(base)) throw new Error(`the client refuses ${this.redactor.text(base)}: it is not a base URL of the target file`);
    const url = new URL(base + path);
    if (url.pathname !== new URL(base).pathname.replace(/\/$/, '') + path) {
      throw new Error(`the client refuses GET ${this.redactor.text(base + path)}: a path parameter would leave the documented path (${url.pathname})`);
    }
    return url;
  }

  /**
   * Once the target stopped answering, the remaining checks are cut short like a spent budget
   * (`skip`, with the reason): the requests that did fail are the run's `error`s.
   */
  private refuseIfStopped(): void {
    if (this.state.stopped) throw new CannotJudge('budget', `not sent: ${this.state.stopped}`);
  }

  private noteFailure(what: string): void {
    this.state.failuresInARow++;
    if (this.state.failuresInARow >= CONSECUTIVE_FAILURE_LIMIT) {
      this.state.stopped ??= `the target stopped answering (${this.state.failuresInARow} requests in a row without a usable answer, last: ${what}); nothing more is sent in this run`;
    }
  }

  private noteAnswer(): void {
    this.state.failuresInARow = 0;
  }

  /**
   * Waits before a 429/503 retry, within the run's retry budget (the time all such waits may take
   * together): a target that keeps limiting cannot hold the run until its deadline. Past the budget
   * the run stops sending, with that reason (8 rule 3: a 429 is never the probed requirement's failure).
   */
  private async waitRateLimited(ms: number, url: URL): Promise<void> {
    if (this.state.rateLimitedWaitMs + ms > this.settings.retryBudgetMs) {
      this.state.stopped ??= `the target kept answering 429/503: the retry budget of ${this.settings.retryBudgetMs / 1000} s was spent waiting (last: GET ${this.redactor.text(url.pathname)}); nothing more is sent in this run`;
      throw new CannotJudge('rate-limited', this.state.stopped);
    }
    this.state.rateLimitedWaitMs += ms;
    await sleep(ms);
  }

  private spendBudget(url: URL): void {
    // The command line's preflight (settings.requestsBefore) counts against the budget too.
    if (this.log.count + this.settings.requestsBefore >= this.settings.maxRequests) {
      throw new CannotJudge('budget', `request budget of ${this.settings.maxRequests} spent before GET ${url.pathname}`);
    }
  }

  private async pace(): Promise<void> {
    if (this.settings.maxRps <= 0) return;
    const now = Date.now();
    const wait = this.state.nextSlot - now;
    this.state.nextSlot = Math.max(now, this.state.nextSlot) + 1000 / this.settings.maxRps;
    if (wait > 0) await sleep(wait);
  }

  /** Retry-After (seconds or HTTP date) when given, else exponential from 200 ms; never above the cap. */
  private backoff(attempt: number, retryAfter: string | undefined): number {
    let ms = 200 * 2 ** (attempt - 1);
    const value = retryAfter?.trim() ?? '';
    // delay-seconds or an HTTP-date (RFC 9110 10.2.3); anything else (empty, negative) is ignored.
    if (/^\d+(\.\d+)?$/.test(value)) ms = Number(value) * 1000;
    else if (/^[A-Za-z]{3},/.test(value) && !Number.isNaN(Date.parse(value))) ms = Date.parse(value) - Date.now();
    return Math.min(Math.max(ms, 0), this.settings.retryCapMs);
  }

  /** `response` comes already masked (its body was masked before it was parsed); the rest is masked here. */
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
      request: { method: 'GET', url: excerpt(r.text(url.toString())), headers: excerptHeaders(r.headers(headers)) },
      durationMs,
      retries,
      ...(response
        ? { response: { status: response.status, headers: excerptHeaders(maskVolatileHeaders(response.headers)), ...truncateBody(response.text) } }
        : {}),
      ...(error ? { error: excerpt(r.text(error)) } : {}),
    };
    this.exchanges.push(exchange);
    if (this.exchanges.length > 50) this.exchanges.shift();
    return exchange;
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/**
 * Statuses that can come on any request and say nothing of it: 429 and 503 (7.1, 8 rule 3; a rate
 * limit or an outage, answered on any operation) and, for list interns, 408 (4.3, 7.3, 8 rule 4: "A
 * 408 response exists for list interns"). Retried within the retry budget, never a check's answer.
 */
export function isTransient(operation: SeenResponse['operation'], status: number): boolean {
  return status === 429 || status === 503 || (status === 408 && operation === 'listInterns');
}
