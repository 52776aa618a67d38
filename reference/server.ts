/** The reference implementation of the service (node:http only). */
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Operation } from './operations.ts';
import { authenticate, permitted } from './auth.ts';
import type { RouteContext } from './context.ts';
import {
  CONTAINER_EMPTY,
  CONTAINER_MAIN,
  CONTAINER_RESTARTED,
  CONTAINER_SESSION,
  FORBIDDEN_MODEL_FIXTURE,
  MISSING_MODEL_FIXTURE,
  MODEL_FIXTURE,
  WORKSPACE_A,
  WORKSPACE_B,
} from './data.ts';
import {
  filesError,
  internsError,
  methodNotAllowed,
  modelsError,
  routeNotFound,
  withErrorFaults,
  withModelsCodes,
  type JsonResponse,
} from './errors.ts';
import { hasFault, unknownFaults } from './faults/index.ts';
import { hasReading, unknownReadings } from './variants.ts';
import {
  DEFAULT_REFERENCE_OPTIONS,
  type ReferenceOptions,
  type ReferenceRequest,
  type ReferenceServer,
} from './options.ts';
import { jsonText } from './json-text.ts';
import { listContainerFiles } from './routes/container-files.ts';
import { listInterns } from './routes/interns.ts';
import { listModelEndpoints } from './routes/model-endpoints.ts';

/** Section 9 rule 1: base_url includes /v1 (fault base-url-without-v1: /api). */
const BASE_PATH = '/v1';
function basePath(opts: ReferenceOptions): string {
  return hasFault(opts, 'base-url-without-v1') ? '/api' : BASE_PATH;
}

interface Route {
  op: Operation;
  /** Path segments after /v1; `:name` captures one raw (still percent-encoded) non-empty segment. */
  pattern: readonly string[];
  handle(ctx: RouteContext): JsonResponse;
  unauthorized(opts: ReferenceOptions): JsonResponse;
  forbidden(opts: ReferenceOptions): JsonResponse;
  internal(opts: ReferenceOptions): JsonResponse;
}

/** The three documented paths (section 4); each operation answers errors in its own 7.x shape. */
const ROUTES: readonly Route[] = [
  {
    op: 'listContainerFiles',
    pattern: ['containers', ':container_id', 'files'],
    handle: listContainerFiles,
    unauthorized: () => filesError(401),
    forbidden: () => filesError(403),
    internal: () => filesError(500),
  },
  {
    op: 'listModelEndpoints',
    pattern: ['models', ':author', ':slug', 'endpoints'],
    handle: listModelEndpoints,
    unauthorized: (o) => withModelsCodes(o, modelsError(401)),
    forbidden: (o) => withModelsCodes(o, modelsError(403)),
    internal: (o) => withModelsCodes(o, modelsError(500)),
  },
  {
    op: 'listInterns',
    pattern: ['interns'],
    handle: listInterns,
    unauthorized: (o) =>
      hasFault(o, 'auth-error-code-mismatch')
        ? { status: 401, body: { error: { code: 403, message: 'Invalid or missing API key' } } }
        : internsError(401, o),
    forbidden: (o) => internsError(403, o),
    internal: (o) => internsError('internal_error', o),
  },
];

function match(opts: ReferenceOptions, pathname: string): { route: Route; rawParams: Record<string, string> } | null {
  const base = basePath(opts);
  if (!pathname.startsWith(`${base}/`)) return null;
  // Split the raw path: no URL normalisation (a `%2F` or `%2e%2e` inside a segment stays in it).
  const segments = pathname.slice(base.length + 1).split('/');
  for (const route of ROUTES) {
    if (route.pattern.length !== segments.length) continue;
    const rawParams: Record<string, string> = {};
    const ok = route.pattern.every((p, i) => {
      const s = segments[i] ?? '';
      if (p.startsWith(':')) {
        rawParams[p.slice(1)] = s;
        return s.length > 0;
      }
      return p === s;
    });
    if (ok) return { route, rawParams };
  }
  return null;
}

/**
 * Order of checks for a documented path: method (405), authentication (401, section 5 rule 2),
 * permission (403, rule 3), then the operation's own parameter validation (400 / invalid_body).
 * Unknown paths are 404 before any authentication: there is no operation whose rules apply.
 */
function respond(opts: ReferenceOptions, req: ReferenceRequest): JsonResponse {
  const url = req.url ?? '/';
  const q = url.indexOf('?');
  const pathname = q < 0 ? url : url.slice(0, q);
  const query = new URLSearchParams(q < 0 ? '' : url.slice(q + 1));
  const m = match(opts, pathname);
  if (!m) return routeNotFound();
  const { route, rawParams } = m;
  if (req.method !== 'GET') return methodNotAllowed(); // section 4: all three operations are GET
  const transient = transientAnswer(opts, route.op, `${url} ${req.headers.authorization ?? ''}`);
  if (transient) return transient;
  // Fault: no header is served as the management key when the request carries query parameters.
  const caller =
    hasFault(opts, 'auth-missing-key-accepted-with-params') && req.headers.authorization === undefined && q >= 0
      ? authenticate(`Bearer ${opts.keys.management}`, opts)
      : authenticate(req.headers.authorization, opts);
  if (hasFault(opts, 'auth-missing-key-403') && req.headers.authorization === undefined) return route.forbidden(opts);
  if (!caller) return route.unauthorized(opts);
  if (hasFault(opts, 'auth-bearer-rejected') && caller.kind === 'management') return route.unauthorized(opts);
  if (!permitted(caller, route.op, opts))
    return hasFault(opts, 'auth-restricted-401') ? route.unauthorized(opts) : route.forbidden(opts);
  try {
    return withErrorFaults(opts, route.op, route.handle({ opts, caller, query, rawParams }));
  } catch (err) {
    console.error('reference: internal error', err);
    return route.internal(opts);
  }
}

const transientCounts = new WeakMap<ReferenceOptions, Map<Operation, number>>();
/** Requests answered with a transient status, whose next asking is answered (bounded: a client may never ask again). */
const transientRequests = new WeakMap<ReferenceOptions, Set<string>>();
const TRANSIENT_REQUESTS_KEPT = 10_000;

/**
 * Option transientEvery: the statuses the document lists as able to come on any request of an
 * operation (7.1 429 and 503, 8 rule 3; 7.3 408, 8 rule 4), answered now and then with Retry-After: 0.
 * A client retries them; they are never the answer to what it asked. Transient is transient: the same
 * request asked again is answered, however many requests of other clients came in between (a run
 * with many requests in flight would otherwise meet the Nth again on its retry, and again).
 */
function transientAnswer(opts: ReferenceOptions, op: Operation, request: string): JsonResponse | undefined {
  const wrongCode = hasFault(opts, 'files-503-code-500') || hasFault(opts, 'interns-408-code-500');
  const every = opts.transientEvery > 0 ? opts.transientEvery : wrongCode ? 9 : 0;
  if (every <= 0 || op === 'listModelEndpoints') return undefined;
  let retried = transientRequests.get(opts);
  if (!retried) transientRequests.set(opts, (retried = new Set()));
  if (retried.delete(request)) return undefined;
  let counts = transientCounts.get(opts);
  if (!counts) transientCounts.set(opts, (counts = new Map()));
  const n = (counts.get(op) ?? 0) + 1;
  counts.set(op, n);
  if (n % every !== 0) return undefined;
  let r = op === 'listInterns' ? internsError(408, opts) : filesError((n / every) % 2 === 0 ? 429 : 503);
  if (hasFault(opts, 'files-503-code-500') && op === 'listContainerFiles')
    r = {
      status: 503,
      body: {
        error: { code: 500, message: 'Service temporarily unavailable', metadata: null },
        service_metadata: null,
        user_id: null,
      },
    };
  else if (hasFault(opts, 'interns-408-code-500') && op === 'listInterns')
    r = { status: 408, body: { error: { code: 500, message: 'Request timed out' } } };
  else if (wrongCode) return undefined;
  if (retried.size >= TRANSIENT_REQUESTS_KEPT) retried.clear();
  retried.add(request);
  return { ...r, headers: { 'retry-after': '0' } };
}

/** A response as it goes on the wire: what the reference remembers of an answer it can give again. */
export interface Wire {
  status: number;
  headers: Record<string, string | number>;
  body: Buffer;
}

function wire(opts: ReferenceOptions, r: JsonResponse): Wire {
  const body = Buffer.isBuffer(r.raw) ? r.raw : Buffer.from(r.raw ?? jsonText(r.body), 'utf8');
  // Reading errors-problem-json: error bodies as RFC 9457 problem documents' media type (still section 7's body).
  const errorType =
    hasReading(opts, 'errors-problem-json') && r.status >= 400 ? 'application/problem+json' : opts.contentType;
  const contentType = hasFault(opts, 'errors-text-plain-content-type') && r.status === 401 ? 'text/plain' : errorType;
  return {
    status: r.status,
    headers: { 'content-type': contentType, 'content-length': body.length, ...r.headers },
    body,
  };
}

function send(res: ServerResponse, w: Wire): void {
  res.writeHead(w.status, w.headers);
  res.end(w.body);
}

/** Bytes of answers the references of one process keep to give again, all together. */
const ANSWERS_CAP_BYTES = 64 * 1024 * 1024;

/**
 * The answers kept, by the options of the references that gave them (their JSON text): equal options
 * give equal answers, as the data is fixed and a route reads only the options and the request, so a
 * process that starts the same reference again and again (the suite's self-test, one run per seed)
 * builds each answer once. The oldest options' answers give way to keep within ANSWERS_CAP_BYTES.
 */
const KEPT = new Map<string, { answers: Map<string, Wire>; bytes: number }>();
let keptBytes = 0;

/** The key of `opts` in KEPT, its answers made the newest. */
function keptKey(opts: ReferenceOptions): string {
  // Written so that no two options read the same: undefined and the numbers JSON writes as null are named.
  const key = JSON.stringify(opts, (_, v: unknown) =>
    v === undefined || (typeof v === 'number' && !Number.isFinite(v)) ? `\u0000${String(v)}` : v,
  );
  const kept = KEPT.get(key);
  if (kept) {
    KEPT.delete(key);
    KEPT.set(key, kept);
  }
  return key;
}

/** Keeps `w`, the answer to `request` of the options of `optionsKey`, if there is room, the oldest other options' answers giving way. */
function keep(optionsKey: string, request: string, w: Wire): void {
  const size = w.body.length + request.length;
  let own = KEPT.get(optionsKey);
  if (!own) KEPT.set(optionsKey, (own = { answers: new Map(), bytes: 0 }));
  for (const [key, old] of KEPT) {
    if (keptBytes + size <= ANSWERS_CAP_BYTES) break;
    if (old === own) continue;
    KEPT.delete(key);
    keptBytes -= old.bytes;
  }
  if (keptBytes + size > ANSWERS_CAP_BYTES) return;
  own.answers.set(request, w);
  own.bytes += size;
  keptBytes += size;
}

/**
 * The main host's answers, given again to the same request (method, path and query, Authorization): a
 * run asks the same page many times, and building and serialising it again is most of the reference's
 * work. Not when answers depend on how many requests came before (transient statuses every Nth).
 */
function answers(opts: ReferenceOptions): (req: ReferenceRequest) => Wire {
  const counted =
    opts.transientEvery > 0 || hasFault(opts, 'files-503-code-500') || hasFault(opts, 'interns-408-code-500');
  if (counted) return (req) => wire(opts, respond(opts, req));
  const optionsKey = keptKey(opts);
  return (req) => {
    const request = `${req.method ?? ''} ${req.url ?? ''} ${req.headers.authorization ?? '(none)'}`;
    const hit = KEPT.get(optionsKey)?.answers.get(request);
    if (hit) return hit;
    const w = wire(opts, respond(opts, req));
    keep(optionsKey, request, w);
    return w;
  };
}

/** `port` and `regionalPort` 0 (the default) take any free port; a fixed one lets a hand-written target file name it. */
export async function startReference(
  opts: Partial<ReferenceOptions> & { port?: number; regionalPort?: number } = {},
): Promise<ReferenceServer> {
  const { port = 0, regionalPort: wantedRegionalPort = 0, ...rest } = opts;
  const options: ReferenceOptions = Object.freeze({ ...DEFAULT_REFERENCE_OPTIONS, ...rest });
  const unknown = unknownFaults(options.faults);
  if (unknown.length > 0) throw new Error(`unknown reference fault(s): ${unknown.join(', ')}`);
  const unknownR = unknownReadings(options.readings);
  if (unknownR.length > 0) throw new Error(`unknown reference reading(s): ${unknownR.join(', ')}`);

  const received: Array<{ method: string; url: string }> = [];
  const answer = answers(options);
  // 4.3: "Requests sent to regional host names are refused". The reference's regional host is a second
  // loopback listener (a host name of its own would need DNS): list interns is refused there with
  // not_found, as the route does not exist on it; the other operations are served as on the main host.
  const serve = (host: 'main' | 'regional', req: ReferenceRequest): Wire => {
    received.push({ method: req.method ?? '', url: req.url ?? '' });
    if (host === 'main') return answer(req);
    const [path, query] = (req.url ?? '').split('?');
    const interns = path === `${basePath(options)}/interns`;
    const served =
      hasFault(options, 'interns-regional-host-served') ||
      (hasFault(options, 'interns-regional-host-served-with-query') && query !== undefined && query !== '');
    return wire(options, interns && !served ? internsError('not_found', options) : respond(options, req));
  };
  const server = createServer((req, res) => send(res, serve('main', req)));
  const regional = createServer((req, res) => send(res, serve('regional', req)));
  // Not a contract matter: a long keep-alive avoids the idle-socket race (ECONNRESET) with clients
  // whose event loop is busy validating a large page for longer than Node's default 5 s.
  server.keepAliveTimeout = 60_000;
  const actual = await listen(server, port);
  const regionalPort = await listen(regional, wantedRegionalPort).catch((err: unknown) => {
    server.close(); // a taken regional port leaves no main listener behind
    throw err;
  });

  return {
    baseUrl: `http://127.0.0.1:${actual}${basePath(options)}`,
    regionalBaseUrl: `http://127.0.0.1:${regionalPort}${basePath(options)}`,
    keys: options.keys,
    fixtures: {
      containerId: CONTAINER_MAIN,
      restartedContainerId: CONTAINER_RESTARTED,
      sessionContainerId: CONTAINER_SESSION,
      emptyContainerId: CONTAINER_EMPTY,
      model: MODEL_FIXTURE,
      missingModel: MISSING_MODEL_FIXTURE,
      forbiddenModel: FORBIDDEN_MODEL_FIXTURE,
      workspaceId: WORKSPACE_A,
      otherWorkspaceId: WORKSPACE_B,
    },
    options,
    received,
    serve,
    close: async () => {
      await Promise.all(
        [server, regional].map(
          (srv) =>
            new Promise<void>((resolve, reject) => {
              srv.close((err) => (err ? reject(err) : resolve()));
              srv.closeAllConnections();
            }),
        ),
      );
    },
  };
}

function listen(srv: Server, port: number): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    srv.once('error', reject);
    srv.listen(port, '127.0.0.1', () => {
      srv.off('error', reject);
      resolve((srv.address() as AddressInfo).port);
    });
  });
}
