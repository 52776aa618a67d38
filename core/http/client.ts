import { CannotJudge } from '../check/errors.ts';
import { excerpt, excerptHeaders, maskVolatileHeaders, truncateBody, type Exchange } from '../check/evidence.ts';
import { Mask, secretsOf } from '../text/mask.ts';
import { Places, type Ticket } from '../run/places.ts';
import { RequestLog } from './request-log.ts';
import { decodeJsonBody, firstDuplicateKey, type JsonBodyFacts } from './json-body.ts';
import { TextMemo } from '../text/text-memo.ts';
import type { SeenResponse } from '../check/judge.ts';
import { concurrencyOf, type RunSettings } from '../run/run-settings.ts';
import type { Target } from '../target/target.ts';
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

function refuseLongUrl(url: URL, mask: Mask): void {
  const length = url.href.length;
  if (length <= MAX_URL_CHARS) return;
  const names = [...new Set(url.searchParams.keys())].map((k) => excerpt(mask.text(k), 100)).join(', ');
  throw new CannotJudge(
    'unsendable',
    `GET ${excerpt(mask.text(url.pathname), 200)}: the URL would be ${length} characters long (query parameters ${names}: a value the target sent, such as a cursor?), over the ${MAX_URL_CHARS} the suite sends; not sent (RFC 9110 4.1 recommends 8000 octets)`,
  );
}

/**
 * The state of one run, in memory, shared by every check of the run (however many are in flight): the
 * request log (the budget counts it), the pace, the pause a 429/503 asked for, the time spent waiting
 * on them, and why the run stopped sending, if it did.
 */
export class RunState {
  readonly log = new RequestLog();
  failuresInARow = 0;
  /**
   * Time the whole run was held waiting before 429/503 retries: a target that limits now and then
   * still spends it. A pause counts once, however many checks it held.
   */
  rateLimitedWaitMs = 0;
  /** When the last request of the run left (ms since the epoch): the pace counts from it. */
  lastSent = -Infinity;
  /** Requests the budget granted so far (sent, or waiting for their turn to be sent). */
  granted = 0;
  /** No request of the run leaves before this instant (ms since the epoch): the pause the last 429/503 asked for. */
  pausedUntil = 0;
  stopped: string | undefined;
  /** The run stopped because the suite's deadline passed (its `stopped` says so in words). */
  deadlinePassed = false;
  /** Requests answered from the run's memory of what it already received instead of being sent again. */
  requestsSaved = 0;
  /**
   * The instant (ms since the epoch) each request left, in order, when the run has a --max-rps: what
   * the rate is held to across every check in flight.
   */
  readonly slots: number[] = [];
  /** Requests of the run handed to the transport and not yet answered: --concurrency at most. */
  readonly requestsInFlight = new Places();
  /** The one request waiting for the next slot of --max-rps or the end of a pause: the others line up by rank. */
  readonly pacer = new Places();
}

/** A response kept by the run to answer the same request again (RunMemory). */
interface Answer {
  response: ApiResponse;
  seen: SeenResponse;
  chars: number;
}

/**
 * What one run shares between the clients of its checks besides its state: the mask (a secret
 * derived by one check is masked in every check's evidence), the duplicate-name memo and the answers
 * already received, by request (method, URL, Authorization), each held as a promise so that checks
 * asking the same thing at once wait for one request.
 */
interface RunMemory {
  mask: Mask;
  duplicateKeys: TextMemo<string | undefined>;
  /** With the ticket it waits for a place in flight on, which a check served before its sender raises. */
  answers: Map<string, { answer: Promise<Answer | undefined>; ticket: Ticket }>;
  answerChars: number;
}

/** What belongs to one check: its id, its exchanges (newest last), its response listener, what it asked. */
interface CheckScope {
  check: string;
  exchanges: Exchange[];
  onResponse: ResponseListener | undefined;
  asked: number;
  /** Its requests' rank for a place in flight and for the pace (RunState.requestsInFlight, RunState.pacer): lower goes first. */
  rank: number;
}

/**
 * Bounds of the run's memory of answers (rule "Hostile input"): a body over a mebi-character is asked again
 * rather than kept, and past 64 Mi characters in all nothing more is kept.
 */
const ANSWER_MAX_CHARS = 1024 * 1024;
const ANSWERS_MAX_CHARS = 64 * 1024 * 1024;

/** A response as the run's whole-run judgements see it (core/check/judge.ts), handed to the engine as it arrives. */
export type ResponseListener = (seen: SeenResponse) => void;

/**
 * The only way checks reach the target: GET on the three documented paths under the configured base
 * URL (rule "Hostile input"), within the run's request budget, rate limit and time-outs, with 429/503 retried
 * under a bounded back-off and every exchange kept, redacted, for the report.
 */
export class Client {
  private readonly memory: RunMemory;
  private readonly scope: CheckScope;

  /**
   * A run's client. `memory`, `scope` and `fresh` are the client's own (forCheck, fresh): a check's
   * client shares the run's state and memory and has a scope of its own.
   */
  constructor(
    private readonly target: Target,
    private readonly settings: RunSettings,
    private readonly transport: Transport,
    readonly state: RunState = new RunState(),
    memory?: RunMemory,
    scope?: CheckScope,
    private readonly freshAnswers = false,
  ) {
    this.memory = memory ?? {
      mask: new Mask(secretsOf(target)),
      duplicateKeys: new TextMemo(),
      answers: new Map(),
      answerChars: 0,
    };
    this.scope = scope ?? { check: '', exchanges: [], onResponse: undefined, asked: 0, rank: 0 };
  }

  /**
   * The client of one check running in this run: its own check id, exchanges and response listener,
   * over the run's state (budget, pace, pause, retry budget, stop, log) and memory. Checks in flight
   * together each have one.
   */
  forCheck(check: string, rank = 0): Client {
    return new Client(this.target, this.settings, this.transport, this.state, this.memory, {
      check,
      exchanges: [],
      onResponse: undefined,
      asked: 0,
      rank,
    });
  }

  /**
   * This check's client that always sends (the budget and pace permitting), never answering from the
   * run's memory: for a check that compares the target with itself over time (the same page asked
   * again to see whether the listing moves). Its answers are not kept for others.
   */
  get fresh(): Client {
    return new Client(this.target, this.settings, this.transport, this.state, this.memory, this.scope, true);
  }

  get mask(): Mask {
    return this.memory.mask;
  }

  /** Exchanges of this check, newest last (the last 50). */
  get exchanges(): Exchange[] {
    return this.scope.exchanges;
  }

  get check(): string {
    return this.scope.check;
  }

  set check(id: string) {
    this.scope.check = id;
  }

  /** Told of every response this check receives, sent or answered from the run's memory (the engine's whole-run judgements). */
  get onResponse(): ResponseListener | undefined {
    return this.scope.onResponse;
  }

  set onResponse(listener: ResponseListener | undefined) {
    this.scope.onResponse = listener;
  }

  /** Requests this check made: sent (retries included) or answered from the run's memory. */
  get asked(): number {
    return this.scope.asked;
  }

  get log(): RequestLog {
    return this.state.log;
  }

  /** 4.1 GET /containers/{container_id}/files */
  listContainerFiles(containerId: string, query: Query = {}, auth: Auth = 'key'): Promise<ApiResponse> {
    return this.get(
      { operation: 'listContainerFiles', pathParams: { container_id: containerId } },
      `/containers/${encodeURIComponent(containerId)}/files`,
      query,
      auth,
    );
  }

  /** 4.2 GET /models/{author}/{slug}/endpoints; model is `author/slug`. */
  listModelEndpoints(model: string, auth: Auth = 'key'): Promise<ApiResponse> {
    const [author = '', slug = ''] = model.split('/');
    return this.get(
      { operation: 'listModelEndpoints', pathParams: { author, slug } },
      `/models/${encodeURIComponent(author)}/${encodeURIComponent(slug)}/endpoints`,
      {},
      auth,
    );
  }

  /** 4.3 GET /interns; query keys are the wire names (see internsQuery in suites/support/interns-query.ts). */
  listInterns(query: Query = {}, auth: Auth = 'key', baseUrl = this.target.baseUrl): Promise<ApiResponse> {
    return this.get({ operation: 'listInterns', pathParams: {} }, '/interns', query, auth, baseUrl);
  }

  private async get(
    op: Pick<SeenResponse, 'operation' | 'pathParams'>,
    path: string,
    query: Query,
    auth: Auth,
    baseUrl = this.target.baseUrl,
  ): Promise<ApiResponse> {
    const url = this.documentedUrl(path, baseUrl);
    for (const [k, v] of Object.entries(query)) if (v !== undefined) url.searchParams.append(k, String(v));
    refuseLongUrl(url, this.mask);
    const headers: Record<string, string> = { accept: 'application/json', 'user-agent': 'conformance-suite' };
    // --header: a gateway's own headers on every request (never Authorization or Accept: cli/header-option.ts).
    for (const h of this.target.headers ?? []) headers[h.name.toLowerCase()] = h.value;
    const authorization = this.authorization(auth);
    if (authorization !== undefined) headers['authorization'] = authorization;
    if (this.freshAnswers)
      return (await this.send(op, url, headers, auth, baseUrl, { rank: this.scope.rank })).response;

    // A GET the run already made is answered from its memory (GET is safe and idempotent, RFC 9110
    // 9.2.1-9.2.2; a check that asks whether the target moved uses `fresh`): the same request, the
    // same answer, one request to the target. Checks asking it at once wait for the one in flight; a
    // request that got no usable answer is not kept, and whoever asks next sends it again.
    const key = `GET ${url.toString()}\u0000${authorization ?? '(none)'}`;
    for (;;) {
      const known = this.memory.answers.get(key);
      if (!known) break;
      this.state.requestsInFlight.raise(known.ticket, this.scope.rank);
      this.state.pacer.raise(known.ticket, this.scope.rank);
      const answer = await known.answer;
      if (!answer) continue;
      this.refuseIfStopped();
      this.state.requestsSaved++;
      return this.replay(answer);
    }
    let keep!: (a: Answer | undefined) => void;
    const pending = new Promise<Answer | undefined>((resolve) => (keep = resolve));
    const ticket: Ticket = { rank: this.scope.rank };
    this.memory.answers.set(key, { answer: pending, ticket });
    let kept: Answer | undefined;
    try {
      const answer = await this.send(op, url, headers, auth, baseUrl, ticket);
      if (answer.chars > ANSWER_MAX_CHARS || this.memory.answerChars + answer.chars > ANSWERS_MAX_CHARS)
        return answer.response;
      kept = answer;
      this.memory.answerChars += answer.chars;
      return { ...answer.response, headers: { ...answer.response.headers } };
    } finally {
      if (!kept) this.memory.answers.delete(key);
      keep(kept);
    }
  }

  /** A kept answer given to this check (its parsed body frozen, shared), and seen by its judges as if received. */
  private replay(answer: Answer): ApiResponse {
    this.keepExchange(answer.response.exchange);
    const response: ApiResponse = { ...answer.response, headers: { ...answer.response.headers } };
    this.onResponse?.({ ...answer.seen, check: this.check });
    return response;
  }

  private async send(
    op: Pick<SeenResponse, 'operation' | 'pathParams'>,
    url: URL,
    headers: Record<string, string>,
    auth: Auth,
    baseUrl: string,
    ticket: Ticket,
  ): Promise<Answer> {
    let retries = 0;
    for (;;) {
      this.refuseIfStopped();
      // At most --concurrency requests of the run in flight, whatever asks (checks, a property's runs):
      // one waiting for its turn is not handed to the transport, so a stop that comes meanwhile sends it never.
      await this.state.requestsInFlight.take(concurrencyOf(this.settings), ticket);
      let raw;
      let started = performance.now();
      try {
        this.refuseIfStopped();
        this.spendBudget(url);
        await this.pace(ticket);
        // The run may have stopped while this request waited for its turn (deadline, retry budget).
        this.refuseIfStopped();
        started = performance.now();
        raw = await this.transport.get(url, headers);
      } catch (e) {
        if (e instanceof CannotJudge) throw e;
        const ms = Math.round(performance.now() - started);
        // Redacted: a transport's message may quote the request (and so the key).
        const message = this.mask.text(e instanceof TransportError ? e.message : String(e));
        const exchange = this.record(url, headers, undefined, ms, retries, message);
        this.log.append({
          method: 'GET',
          url: excerpt(this.mask.text(url.toString())),
          status: null,
          ms,
          retry: retries > 0 ? 1 : 0,
          check: this.check,
          error: message,
        });
        // The run stopped while this request was in flight (its transport closed): cut short, not the target's failure.
        if (this.state.stopped) throw new CannotJudge('stopped', `cut short: ${this.state.stopped}`, [exchange]);
        const failure = `GET ${this.mask.text(url.pathname)}: ${message}`;
        this.noteFailure(failure);
        throw new CannotJudge('transport', `GET ${this.mask.text(url.toString())}: ${message}`, [exchange]);
      } finally {
        this.state.requestsInFlight.leave();
      }
      const ms = Math.round(performance.now() - started);
      const retryAfter = raw.headers['retry-after'];
      this.log.append({
        method: 'GET',
        // Bounded like all evidence (rule "Hostile input"): a cursor of megabytes is not kept once per request.
        url: excerpt(this.mask.text(url.toString())),
        status: raw.status,
        ms,
        retry: retries > 0 ? 1 : 0,
        check: this.check,
        // Masked like every header the target sends (it may echo anything).
        ...(retryAfter ? { retryAfter: excerpt(this.mask.text(retryAfter), 200) } : {}),
      });
      const transient = isTransient(op.operation, raw.status);
      // Redacted before any check sees it: a target that echoes the key cannot put it in a message.
      // Strict UTF-8 (RFC 8259 8.1), redacted before it is parsed: a target that echoes the key
      // cannot put it in a message, a parsed value or an evidence body.
      const body = decodeJsonBody(
        raw.body,
        (t) => this.mask.text(t),
        (t) => this.memory.duplicateKeys.of(t, firstDuplicateKey),
      );
      const text = body.text;
      const responseHeaders = this.mask.headers(raw.headers);
      const exchange = this.record(url, headers, { status: raw.status, headers: responseHeaders, text }, ms, retries);
      const response: ApiResponse = {
        status: raw.status,
        headers: responseHeaders,
        text,
        // Frozen (decodeJsonBody): the run's memory gives the same parsed body to every check that asks again.
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
        ...(op.operation === 'listInterns' && auth === 'key'
          ? {
              interns: {
                keyWorkspace: this.target.interns.workspaceId,
                filterNamed: this.target.interns.params !== undefined,
              },
            }
          : {}),
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
        const after = retryAfter !== undefined ? ` (Retry-After: ${this.mask.text(retryAfter).slice(0, 40)})` : '';
        const message = `target still answered ${raw.status} after ${retries} retries${after}`;
        this.noteFailure(`GET ${this.mask.text(url.pathname)}: ${message}`);
        throw new CannotJudge('rate-limited', message, [exchange]);
      }
      this.noteAnswer();
      this.onResponse?.(seen);
      return { response, seen, chars: text.length + url.toString().length };
    }
  }

  private authorization(auth: Auth): string | undefined {
    if (auth === 'none') return undefined;
    if (auth === 'key') return `Bearer ${this.target.apiKey}`;
    if (auth === 'restricted') {
      if (!this.target.restrictedApiKey)
        throw new Error('restricted key requested but the target file has no restrictedApiKey');
      return `Bearer ${this.target.restrictedApiKey}`;
    }
    if ('header' in auth) return auth.header;
    const built = auth.fromKey(this.target.apiKey);
    this.mask.add(built.derived ?? []);
    return built.header;
  }

  /**
   * The URL of a documented path under one of the target's base URLs, or a suite error. A path
   * parameter `.` or `..` would be resolved away by URL parsing and the request would leave the
   * documented path (rule "Hostile input"): refused, as is any base URL the target file does not name.
   */
  private documentedUrl(path: string, baseUrl: string): URL {
    const base = baseUrl.replace(/\/+$/, '');
    const allowed = [this.target.baseUrl, this.target.interns.regionalBaseUrl]
      .filter((b): b is string => !!b)
      .map((b) => b.replace(/\/+$/, ''));
    if (!allowed.includes(base))
      throw new Error(`the client refuses ${this.mask.text(base)}: it is not a base URL of the target file`);
    const url = new URL(base + path);
    if (url.pathname !== new URL(base).pathname.replace(/\/$/, '') + path) {
      throw new Error(
        `the client refuses GET ${this.mask.text(base + path)}: a path parameter would leave the documented path (${url.pathname})`,
      );
    }
    return url;
  }

  /**
   * Once the target stopped answering, the remaining checks are cut short like a spent budget
   * (`skip`, with the reason): the requests that did fail are the run's `error`s.
   */
  private refuseIfStopped(): void {
    if (this.state.stopped) throw new CannotJudge('stopped', `not sent: ${this.state.stopped}`);
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
    // One target, one pause (8 rule 3): a 429/503 holds every check's next request, not only the
    // retry of the one that received it; the budget counts the time the run is held, once.
    const now = Date.now();
    const until = Math.max(this.state.pausedUntil, now + ms);
    const added = until - Math.max(now, this.state.pausedUntil);
    if (this.state.rateLimitedWaitMs + added > this.settings.retryBudgetMs) {
      this.state.stopped ??= `the target kept answering 429/503: the retry budget of ${this.settings.retryBudgetMs / 1000} s was spent waiting (last: GET ${this.mask.text(url.pathname)}); nothing more is sent in this run`;
      throw new CannotJudge('rate-limited', this.state.stopped);
    }
    this.state.rateLimitedWaitMs += added;
    this.state.pausedUntil = until;
    // The retry waits in pace() like every other request of the run.
  }

  /**
   * Takes one request of the budget, synchronously: checks in flight together cannot all pass the
   * test before any of them is logged and send more than the budget between them.
   */
  private spendBudget(url: URL): void {
    // The command line's preflight (settings.requestsBefore) counts against the budget too.
    if (this.state.granted + this.settings.requestsBefore >= this.settings.maxRequests) {
      throw new CannotJudge(
        'budget',
        `request budget of ${this.settings.maxRequests} spent before GET ${url.pathname}`,
      );
    }
    this.state.granted++;
  }

  /**
   * Waits for this request's turn: after the run's pause (a 429/503's), and with --max-rps at least
   * 1000/maxRps ms after the previous request any check sent. The turn is taken when the request
   * leaves, not when it starts waiting: a request whose timer fired late (the event loop busy with
   * another check's work) cannot leave in a bunch with the next one. A pause that begins while a
   * request waits holds it too.
   */
  private async pace(ticket: Ticket): Promise<void> {
    const interval = this.settings.maxRps > 0 ? 1000 / this.settings.maxRps : 0;
    if (interval === 0 && this.state.pausedUntil <= Date.now()) return;
    // One request waits for the slot at a time, the next chosen by rank like a place in flight: where
    // the pace is what holds the run back, the checks expected to finish first still do.
    await this.state.pacer.take(1, ticket);
    try {
      await this.nextSlot(interval);
    } finally {
      this.state.pacer.leave();
    }
  }

  private async nextSlot(interval: number): Promise<void> {
    for (;;) {
      // A run that stopped meanwhile sends nothing more: the requests lined up behind do not wait their slots out.
      this.refuseIfStopped();
      const now = Date.now();
      const at = Math.max(now, this.state.pausedUntil, this.state.lastSent + interval);
      if (at <= now) {
        this.state.lastSent = now;
        if (interval > 0) this.state.slots.push(now);
        return;
      }
      await sleep(at - now);
    }
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
    const r = this.mask;
    const exchange: Exchange = {
      request: { method: 'GET', url: excerpt(r.text(url.toString())), headers: excerptHeaders(r.headers(headers)) },
      durationMs,
      retries,
      ...(response
        ? {
            response: {
              status: response.status,
              headers: excerptHeaders(maskVolatileHeaders(response.headers)),
              ...truncateBody(response.text),
            },
          }
        : {}),
      ...(error ? { error: excerpt(r.text(error)) } : {}),
    };
    this.keepExchange(exchange);
    return exchange;
  }

  private keepExchange(exchange: Exchange): void {
    this.scope.asked++;
    this.exchanges.push(exchange);
    if (this.exchanges.length > 50) this.exchanges.shift();
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
