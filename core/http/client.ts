import { CannotJudge } from '../check/errors.ts';
import type { Exchange } from '../check/evidence.ts';
import type { SeenResponse } from '../check/judge.ts';
import type { Ticket } from '../run/places.ts';
import { concurrencyOf, type RunSettings } from '../run/run-settings.ts';
import type { Target } from '../target/target.ts';
import { Mask, secretsOf } from '../text/mask.ts';
import { TextMemo } from '../text/text-memo.ts';
import { AnswerMemory, type Answer } from './answer-memory.ts';
import type { ApiResponse } from './api-response.ts';
import { spendBudget } from './budget.ts';
import { exchangeOf, logEntryOf, type UnreadBodies } from './exchange.ts';
import { pace } from './pace.ts';
import { answerOf, readResponse, type Asked } from './received.ts';
import type { RequestLog } from './request-log.ts';
import { backoff, CROWDED_RETRIES, holdForRetry, isTransient, jitterMs, stillTransient } from './retry.ts';
import { FlightWindow } from './flight-window.ts';
import { sleep } from './pace.ts';
import { noteAnswer, noteFailure, refuseIfStopped, RunState } from './run-state.ts';
import { TransportError, type RawResponse, type Transport } from './transport.ts';
import { documentedUrl, refuseLongQuery, refuseLongUrl } from './url.ts';

export type { ApiResponse } from './api-response.ts';
export { isTransient } from './retry.ts';
export { CONSECUTIVE_FAILURE_LIMIT, RunState } from './run-state.ts';
export { MAX_URL_CHARS } from './url.ts';

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

export type Query = Record<string, string | number | undefined>;

/**
 * What one run shares between the clients of its checks besides its state: the mask (a secret
 * derived by one check is masked in every check's evidence), the duplicate-name memo, the answers
 * already received and the bodies held until read.
 */
interface RunMemory {
  mask: Mask;
  duplicateKeys: TextMemo<string | undefined>;
  /** The bodies of its exchanges not yet read, held unmasked (core/http/exchange.ts responseOf). */
  unread: UnreadBodies;
  answers: AnswerMemory;
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
      answers: new AnswerMemory(),
      unread: { chars: 0 },
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
    const url = documentedUrl(this.target, path, baseUrl, this.mask);
    refuseLongQuery(url, query, this.mask);
    for (const [k, v] of Object.entries(query)) if (v !== undefined) url.searchParams.append(k, String(v));
    refuseLongUrl(url, this.mask);
    const headers: Record<string, string> = { accept: 'application/json', 'user-agent': 'conformance-suite' };
    // --header: a gateway's own headers on every request (never Authorization or Accept: cli/header-option.ts).
    for (const h of this.target.headers ?? []) headers[h.name.toLowerCase()] = h.value;
    const authorization = this.authorization(auth);
    if (authorization !== undefined) headers['authorization'] = authorization;
    const asked: Asked = { op, check: this.check, url, auth: typeof auth === 'string' ? auth : 'other', baseUrl };
    if (this.freshAnswers) return (await this.send(asked, headers, { rank: this.scope.rank })).response;

    // A GET the run already made is answered from its memory (a check that asks whether the target
    // moved uses `fresh`). Checks asking it at once wait for the one in flight.
    const key = `GET ${url.toString()}\u0000${authorization ?? '(none)'}`;
    for (;;) {
      const known = this.memory.answers.known(key);
      if (!known) break;
      this.state.requestsInFlight.raise(known.ticket, this.scope.rank);
      this.state.pacer.raise(known.ticket, this.scope.rank);
      const answer = await known.answer;
      if (!answer) continue;
      refuseIfStopped(this.state);
      this.state.requestsSaved++;
      return this.replay(answer);
    }
    const ticket: Ticket = { rank: this.scope.rank };
    const settle = this.memory.answers.sending(key, ticket);
    let answer: Answer | undefined;
    try {
      answer = await this.send(asked, headers, ticket);
    } finally {
      const kept = settle(answer);
      if (answer && kept)
        answer = { ...answer, response: { ...answer.response, headers: { ...answer.response.headers } } };
    }
    return answer.response;
  }

  /** A kept answer given to this check (its parsed body frozen, shared), and seen by its judges as if received. */
  private replay(answer: Answer): ApiResponse {
    this.keepExchange(answer.response.exchange);
    const response: ApiResponse = { ...answer.response, headers: { ...answer.response.headers } };
    this.onResponse?.({ ...answer.seen, check: this.check });
    return response;
  }

  /**
   * Sends one request until it has an answer: each try takes its place in flight, the budget and its
   * turn of the pace (sendOnce). A 429/503 (or 408 on list interns) is seen by the judges, then
   * retried after the run's pause, within --max-retries and the retry budget. One the target gave while
   * several requests were in flight, or a connection it refused or reset then, lowers the run's window
   * (flight-window.ts) and is retried with fewer at once, after a random share of the back-off
   * (CROWDED_RETRIES of them, besides --max-retries).
   */
  private async send(asked: Asked, headers: Record<string, string>, ticket: Ticket): Promise<Answer> {
    const { url } = asked;
    const window = (this.state.window ??= new FlightWindow(concurrencyOf(this.settings)));
    const places = this.state.requestsInFlight;
    let retries = 0;
    let crowdedRetries = 0;
    // A request retried alone keeps its place in flight through the run's pause (which holds every
    // check's next request anyway): at a window of one, its retry is the target's very next request,
    // so a target that turns away every nth request (8 rule 4's 408) cannot meet it again and again
    // because other checks' requests took the turns between its tries. One retried because it was
    // turned away among several leaves its place, so that the next try goes with fewer at once.
    let holding = false;
    try {
      for (let attempt = 0; ; attempt++) {
        if (!holding) {
          refuseIfStopped(this.state);
          await places.take(window.size, ticket);
          holding = true;
        }
        const tried = await this.sendOnce(url, headers, ticket, window.epoch);
        const eased = tried.crowded && this.settings.maxRetries > 0 && crowdedRetries < CROWDED_RETRIES;
        if ('error' in tried) {
          const connection = tried.error instanceof TransportError ? tried.error.connection : undefined;
          const unanswered = this.unanswered(url, headers, attempt, tried.ms, tried.error);
          if (!connection || !eased || this.state.stopped)
            throw this.failed(unanswered, connection ? window.hint() : '');
          crowdedRetries++;
          window.congested(tried.epoch);
          places.leave(window.size);
          holding = false;
          await this.beforeRetry(attempt + 1, undefined, url, 'refusing or resetting connections', true);
          continue;
        }
        const { raw, ms } = tried;
        const retryAfter = raw.headers['retry-after'];
        this.log.append(logEntryOf(this.mask, url, this.check, attempt, ms, { status: raw.status, retryAfter }));
        const read = readResponse(raw, this.memory.duplicateKeys);
        const exchange = this.record(url, headers, { ...read, text: read.body.text }, ms, attempt, raw.recordedEntry);
        const answer = answerOf(read, exchange, asked, this.target);
        // A transient answer is a response like any other for the whole-run judges (its error body,
        // 7.1 / 7.3), then retried: it is never the answer of the check that happened to receive it.
        const transient = isTransient(asked.op.operation, raw.status);
        if (!transient) {
          noteAnswer(this.state);
          if (window.answered()) places.widen(window.size);
        }
        this.onResponse?.(answer.seen);
        if (!transient) return answer;
        if (eased) {
          crowdedRetries++;
          window.congested(tried.epoch);
          places.leave(window.size);
          holding = false;
        } else if (retries >= this.settings.maxRetries) {
          // 8 rules 3 and 4: a 429, 503 or (list interns) 408 says nothing about the requirement being
          // probed; it is never its failure. Persisting, it leaves the check unable to judge.
          const message = stillTransient(raw.status, retries, retryAfter, this.mask) + window.hint();
          noteFailure(this.state, `GET ${this.mask.text(url.pathname)}: ${message}`);
          throw new CannotJudge('rate-limited', message, [exchange]);
        } else retries++;
        await this.beforeRetry(attempt + 1, retryAfter, url, 'answering 429/503', eased);
      }
    } finally {
      if (holding) places.leave(window.size);
    }
  }

  /**
   * The run's pause before a retry (retry.ts holdForRetry, within the retry budget), then, for a request
   * turned away among several, its own random share of the back-off (jitterMs).
   */
  private async beforeRetry(
    attempt: number,
    retryAfter: string | undefined,
    url: URL,
    kept: string,
    crowded: boolean,
  ): Promise<void> {
    const { settings, state } = this;
    const hint = state.window?.hint() ?? '';
    holdForRetry(state, settings, backoff(attempt, retryAfter, settings.retryCapMs), url, this.mask, kept, hint);
    if (crowded) await sleep(jitterMs(attempt, settings.retryCapMs));
  }

  /**
   * One try of a request that holds its place in flight (at most the run's window of requests, whatever
   * asks: one waiting for its place is not handed to the transport, so a stop that comes meanwhile
   * sends it never): one request of the budget, its turn of the pace, then the transport. Says whether
   * other requests were on the wire with it (`crowded`); `epoch` is the window's when it was sent.
   */
  private async sendOnce(
    url: URL,
    headers: Record<string, string>,
    ticket: Ticket,
    epoch: number,
  ): Promise<({ raw: RawResponse } | { error: unknown }) & { ms: number; crowded: boolean; epoch: number }> {
    const { state } = this;
    let started = performance.now();
    let onTheWire = false;
    let crowded = false;
    try {
      refuseIfStopped(state);
      spendBudget(state, this.settings, url);
      await pace(state, this.settings, ticket);
      // The run may have stopped while this request waited for its turn (deadline, retry budget).
      refuseIfStopped(state);
      started = performance.now();
      crowded = state.onTheWire > 0;
      state.onTheWire++;
      onTheWire = true;
      const raw = await this.transport.get(url, headers);
      crowded ||= state.onTheWire > 1;
      return { raw, ms: Math.round(performance.now() - started), crowded, epoch };
    } catch (e) {
      if (e instanceof CannotJudge) throw e;
      crowded ||= state.onTheWire > 1;
      return { error: e, ms: Math.round(performance.now() - started), crowded, epoch };
    } finally {
      if (onTheWire) state.onTheWire--;
    }
  }

  /** A request the transport got no answer to, logged and recorded as evidence. */
  private unanswered(
    url: URL,
    headers: Record<string, string>,
    attempt: number,
    ms: number,
    e: unknown,
  ): { message: string; exchange: Exchange; url: URL } {
    // Redacted: a transport's message may quote the request (and so the key).
    const message = this.mask.text(e instanceof TransportError ? e.message : String(e));
    const recorded = e instanceof TransportError ? e.recordedEntry : undefined;
    const exchange = this.record(url, headers, undefined, ms, attempt, recorded, message);
    this.log.append(logEntryOf(this.mask, url, this.check, attempt, ms, { error: message }));
    return { message, exchange, url };
  }

  /** What a request without an answer leaves the check with; it counts towards the run's stop. */
  private failed(unanswered: { message: string; exchange: Exchange; url: URL }, hint: string): CannotJudge {
    const { exchange, url } = unanswered;
    const message = unanswered.message + hint;
    // The run stopped while this request was in flight (its transport closed): cut short, not the target's failure.
    if (this.state.stopped) return new CannotJudge('stopped', `cut short: ${this.state.stopped}`, [exchange]);
    noteFailure(this.state, `GET ${this.mask.text(url.pathname)}: ${message}`);
    return new CannotJudge('transport', `GET ${this.mask.text(url.toString())}: ${message}`, [exchange]);
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

  /** An exchange of this check, kept as evidence, naming its own entry of the run's recording when there is one. */
  private record(
    url: URL,
    headers: Record<string, string>,
    response: { status: number; headers: Record<string, string>; text: string } | undefined,
    durationMs: number,
    retries: number,
    recordedEntry: number | undefined,
    error?: string,
  ): Exchange {
    const { mask, unread } = this.memory;
    const exchange = exchangeOf(mask, url, headers, response, durationMs, retries, error, recordedEntry, unread);
    this.keepExchange(exchange);
    return exchange;
  }

  private keepExchange(exchange: Exchange): void {
    this.scope.asked++;
    this.exchanges.push(exchange);
    if (this.exchanges.length > 50) this.exchanges.shift();
  }
}
