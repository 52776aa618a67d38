// Independent implementation of "Service Interface: Container Files, Model
// Endpoints and Interns (read operations)", written from the document alone.
//
// Run:  node --experimental-strip-types server.ts --port 0   (Node >= 22.6)
//       npx tsx server.ts --port 0
// Optional: --rate-limit N  (container-files requests per key per 10 s window)
//
// Choices on points the document leaves open are marked "OPEN:" and are
// collected in NOTES.md next to this file.

import * as http from 'node:http';
import * as crypto from 'node:crypto';

// ---------------------------------------------------------------- settings
const SCAN_BOUND = 50; // OPEN (8.1): hidden bookkeeping objects scanned per request
const FILES_DEFAULT_LIMIT = 100;
const FILES_MAX_LIMIT = 1000;
const INTERNS_DEFAULT_LIMIT = 20; // OPEN (8.2)
const INTERNS_MAX_LIMIT = 500;
const RATE_WINDOW_MS = 10_000; // OPEN (8.3): fixed window per API key
const HANDLER_TIMEOUT_MS = 10_000; // OPEN (8.4): 408 after this long

function argValue(name: string): string | undefined {
  const argv = process.argv.slice(2);
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === name) return argv[i + 1];
    const arg = argv[i]!;
    if (arg.startsWith(`${name}=`)) return arg.slice(name.length + 1);
  }
  return undefined;
}
const PORT = Number(argValue('--port') ?? '0');
const RATE_MAX = Number(argValue('--rate-limit') ?? '3000');

// ---------------------------------------------------------------- helpers
type Json = any;

// Deterministic PRNG so seed data is identical on every start.
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Deterministic UUID (version-4 shaped) derived from a label.
function uuidFrom(label: string): string {
  const h = crypto.createHash('sha256').update(label).digest('hex').split('');
  h[12] = '4';
  h[16] = '89ab'[parseInt(h[16]!, 16) & 3]!;
  const s = h.join('');
  return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20, 32)}`;
}

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const INT_RE = /^[0-9]+$/; // OPEN: integers are plain decimal digits; no sign, no spaces
const pad = (n: number, w: number) => String(n).padStart(w, '0');

// ---------------------------------------------------------------- API keys
type Workspace = { slug: string; uuid: string };
type ApiKey = { userId: string; workspace: Workspace; kind: string };

const WS_INDEP: Workspace = { slug: 'ws_indep', uuid: uuidFrom('workspace:ws_indep') };
const WS_OTHER: Workspace = { slug: 'ws_other', uuid: uuidFrom('workspace:ws_other') };

// OPEN (5): both keys are management keys, so every operation accepts them;
// 403 arises from cross-workspace access (containers, interns workspace filter).
const API_KEYS = new Map<string, ApiKey>([
  ['sk-indep-test-key', { userId: 'user_indep_test', workspace: WS_INDEP, kind: 'management' }],
  ['sk-indep-other-key', { userId: 'user_indep_other', workspace: WS_OTHER, kind: 'management' }],
]);

type AuthResult = { ok: true; key: ApiKey } | { ok: false; missing: boolean };

// OPEN (5): scheme "Bearer" is matched case-insensitively, one or more spaces.
function authenticate(req: http.IncomingMessage): AuthResult {
  const h = req.headers['authorization'];
  if (h === undefined || h.trim() === '') return { ok: false, missing: true };
  const m = /^Bearer +(\S+) *$/i.exec(h);
  const key = m ? API_KEYS.get(m[1]!) : undefined;
  return key ? { ok: true, key } : { ok: false, missing: false };
}

// ---------------------------------------------------------------- containers
type StoredObject = { path: string; key: Buffer; hidden: boolean; bytes: number; syncedAt: number };
type Container = { id: string; workspace: Workspace; objects: StoredObject[] };

// OPEN (4.1): "lexicographic path order" = byte order of the UTF-8 encoded
// path (object-store order). It differs from UTF-16 order for characters
// above U+FFFF vs U+E000..U+FFFF (e.g. emoji sort after fullwidth letters).
function buildContainer(
  id: string,
  workspace: Workspace,
  visible: string[],
  hidden: string[],
  seed: number,
): Container {
  const rnd = mulberry32(seed);
  const seen = new Set<string>();
  const objects: StoredObject[] = [];
  const add = (path: string, isHidden: boolean) => {
    if (seen.has(path)) throw new Error(`duplicate seed path ${path}`);
    seen.add(path);
    objects.push({
      path,
      key: Buffer.from(path, 'utf8'),
      hidden: isHidden,
      bytes: isHidden ? 64 : Math.floor(rnd() * 200_000),
      syncedAt: 1735689600 + Math.floor(rnd() * 30 * 86400),
    });
  };
  for (const p of visible) add(p, false);
  for (const p of hidden) add(p, true);
  objects.sort((a, b) => Buffer.compare(a.key, b.key));
  return { id, workspace, objects };
}

function seedMainContainer(): Container {
  const visible: string[] = [
    'a',
    'A.txt',
    'B.txt',
    'a b.txt',
    'a b/c.txt',
    'a-b',
    'a.b',
    'a/b.txt',
    'a/b/c.txt',
    'a/b c.txt',
    'a_b',
    'a~',
    'a!',
    'ab',
    'a0',
    'a/B.txt',
    '.gitignore',
    'README.md',
    'readme.md',
    'Z-last.txt',
    'café.txt',
    'cafe\u0301.txt',
    'ñandú/ü.txt',
    'Ω/omega.txt',
    '日本語/ファイル.txt',
    '日本語/レポート 2024.md',
    '🎉.txt',
    '📁 emoji/🎉 party.txt',
    'Ｆｕｌｌｗｉｄｔｈ.txt',
    '𝒳 math.txt',
    'with space/and  double  space.txt',
    'percent%20name.txt',
    'plus+sign.txt',
    'hash#tag.md',
    'question?.txt',
    'semi;colon.csv',
    'quote"s.txt',
    "apostrophe's.txt",
    'back\\slash.txt',
    'très/long/nested/path/deep/deeper/deepest/file.txt',
    'z',
    'zz/top.txt',
    '~tilde.txt',
    'src/module_1.ts',
    'src/module_10.ts',
    'src/module_2.ts',
  ];
  for (let m = 0; m < 8; m++) for (let f = 0; f < 10; f++) visible.push(`src/module_${pad(m, 2)}/file_${pad(f, 2)}.ts`);
  for (let mm = 1; mm <= 6; mm++)
    for (let d = 1; d <= 10; d++) visible.push(`data/2024-${pad(mm, 2)}/day ${pad(d * 3 - 2, 2)}.csv`);
  for (let q = 1; q <= 4; q++) for (let v = 1; v <= 5; v++) visible.push(`reports/Q${q} report (v${v}).pdf`);
  for (let i = 1; i <= 40; i++) visible.push(`images/IMG_${i}.png`);
  for (let c = 1; c <= 5; c++) for (let s = 1; s <= 6; s++) visible.push(`docs/guide/chapter ${c}/section-${s}.md`);
  for (let i = 1; i <= 10; i++) visible.push(`notes/📝 note ${i}.txt`);
  for (let i = 1; i <= 20; i++) visible.push(`logs/run-${pad(i, 3)}.log`);

  // Hidden bookkeeping objects (sync journals / markers), never listed:
  //  - a short run at the very start of the key space,
  //  - one marker right after every 6th visible file (in sorted order),
  //  - a long run in the middle (logs/.~journal/...), longer than SCAN_BOUND,
  //  - a long run at the very end (U+1F5C4 sorts after every visible path).
  const hidden: string[] = [];
  for (let i = 0; i < 20; i++) hidden.push(`!bookkeeping/.~seq-${pad(i, 3)}`);
  const sortedVisible = visible
    .map((p) => Buffer.from(p, 'utf8'))
    .sort(Buffer.compare)
    .map((b) => b.toString('utf8'));
  sortedVisible.forEach((p, i) => {
    if (i % 6 === 5) hidden.push(`${p}.~sync`);
  });
  for (let i = 0; i < 150; i++) hidden.push(`logs/.~journal/${pad(i, 4)}`);
  for (let i = 0; i < 120; i++) hidden.push(`🗄 archive/.~rec-${pad(i, 4)}`);
  return buildContainer('cntr_indep', WS_INDEP, visible, hidden, 7);
}

const CONTAINERS = new Map<string, Container>();
for (const c of [
  seedMainContainer(),
  // A restarted session: a separate container with its own files.
  buildContainer(
    'cntr_indep-r9k2m4',
    WS_INDEP,
    ['restart/notes.md', 'restart/out.csv', 'x.txt'],
    ['restart/.~sync'],
    11,
  ),
  // A session-derived container of the other workspace.
  buildContainer('sess_indep-other-session', WS_OTHER, ['hello.py', 'result.json'], [], 13),
])
  CONTAINERS.set(c.id, c);

// OPEN (4.1): well-formed container ids are 1-128 chars of [A-Za-z0-9_-]
// starting with an alphanumeric; anything else is 400. A well-formed id that
// is unknown lists as an empty container (200) - the document has no 404 here
// and a wrong/raw session id simply holds no files.
const CONTAINER_ID_RE = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;

const fileId = (path: string) => `cfile_${Buffer.from(path, 'utf8').toString('base64url')}`;

// Decodes a container file id into the raw path bytes, or null if malformed.
// OPEN: base64url without padding is canonical; trailing "=" padding is
// tolerated; non-canonical encodings, invalid UTF-8 and empty paths are 400.
function decodeFileId(id: string): Buffer | null {
  if (!id.startsWith('cfile_')) return null;
  const b64 = id.slice(6).replace(/={1,2}$/, '');
  if (b64 === '' || !/^[A-Za-z0-9_-]+$/.test(b64) || b64.length % 4 === 1) return null;
  const bytes = Buffer.from(b64, 'base64url');
  if (bytes.toString('base64url') !== b64) return null;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
  return bytes;
}

// First index whose key sorts strictly after `key`.
function upperBound(objs: StoredObject[], key: Buffer): number {
  let lo = 0,
    hi = objs.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (Buffer.compare(objs[mid]!.key, key) <= 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

type FilePage = { files: StoredObject[]; lastPath: string | null; hasMore: boolean };

// Walks the object store after the cursor. Each request may pass over at most
// SCAN_BOUND hidden objects; reaching the bound ends the page at that hidden
// object ("scan position"), unless the page is already full (then last_id is
// the last listed file) or nothing at all follows it (then the scan is done).
function scanFiles(objs: StoredObject[], after: Buffer | null, limit: number): FilePage {
  const files: StoredObject[] = [];
  let hiddenSeen = 0;
  for (let i = after ? upperBound(objs, after) : 0; i < objs.length; i++) {
    const o = objs[i]!;
    if (o.hidden) {
      hiddenSeen++;
      if (hiddenSeen >= SCAN_BOUND && i < objs.length - 1) {
        if (files.length === limit) return { files, lastPath: files[files.length - 1]!.path, hasMore: true };
        return { files, lastPath: o.path, hasMore: true };
      }
      continue;
    }
    if (files.length === limit) return { files, lastPath: files[files.length - 1]!.path, hasMore: true };
    files.push(o);
  }
  return { files, lastPath: files.length ? files[files.length - 1]!.path : null, hasMore: false };
}

// ---------------------------------------------------------------- models
const MODEL_ID = 'indep-labs/wren-8b-instruct';
const MODEL_NAME = 'Indep Labs: Wren 8B Instruct';
const r2 = (x: number) => Math.round(x * 100) / 100;
const COMMON_PARAMS = ['max_tokens', 'temperature', 'top_p', 'stop', 'seed'];

function endpoint(
  provider: string,
  tag: string,
  quant: string,
  ctx: number,
  maxOut: number,
  status: number,
  prices: [string, string, string, string],
  extraParams: string[],
  caching: boolean,
  lat: number,
  thr: number,
  up: [number, number, number],
): Json {
  return {
    name: `${provider} | ${MODEL_ID}`,
    model_id: MODEL_ID,
    model_name: MODEL_NAME,
    provider_name: provider,
    tag,
    context_length: ctx,
    max_completion_tokens: maxOut,
    max_prompt_tokens: ctx - maxOut,
    quantization: quant,
    status, // OPEN (2.4): 0 = healthy, negative = degraded/down
    supported_parameters: [...COMMON_PARAMS, ...extraParams],
    supports_implicit_caching: caching,
    pricing: { prompt: prices[0], completion: prices[1], request: prices[2], image: prices[3] },
    latency_last_30m: { p50: r2(lat), p75: r2(lat * 1.4), p90: r2(lat * 2.1), p99: r2(lat * 4.5) },
    throughput_last_30m: { p50: r2(thr), p75: r2(thr * 0.8), p90: r2(thr * 0.6), p99: r2(thr * 0.3) },
    uptime_last_5m: up[0],
    uptime_last_30m: up[1],
    uptime_last_1d: up[2],
  };
}

const MODELS = new Map<string, Json>([
  [
    MODEL_ID,
    {
      id: MODEL_ID,
      name: MODEL_NAME,
      created: 1718236800,
      description: 'A small instruction-tuned model used to exercise the endpoints listing.',
      architecture: {
        input_modalities: ['text', 'image'],
        output_modalities: ['text'],
        modality: 'text+image->text',
        instruct_type: 'chatml',
        tokenizer: 'Llama3',
      },
      endpoints: [
        endpoint(
          'Alpha Cloud',
          'alpha-cloud/fp8',
          'fp8',
          131072,
          16384,
          0,
          ['0.0000002', '0.0000006', '0', '0.000289'],
          ['tools', 'tool_choice', 'response_format'],
          true,
          420,
          95.5,
          [100, 99.8, 99.52],
        ),
        endpoint(
          'Beta Inference',
          'beta-inference',
          'bf16',
          65536,
          8192,
          0,
          ['0.00000025', '0.00000075', '0', '0'],
          ['frequency_penalty', 'presence_penalty'],
          false,
          610,
          71.25,
          [98.5, 99.1, 97.04],
        ),
        endpoint(
          'Gamma GPU',
          'gamma-gpu/int4',
          'int4',
          32768,
          4096,
          -2,
          ['0.0000001', '0.0000003', '0.0001', '0'],
          ['logprobs', 'top_logprobs'],
          false,
          1350,
          40,
          [62.5, 80, 91.3],
        ),
      ],
    },
  ],
  // A catalogued model that currently has no provider endpoint.
  [
    'indep-labs/retired-1b',
    {
      id: 'indep-labs/retired-1b',
      name: 'Indep Labs: Retired 1B',
      created: 1672531200,
      description: 'Kept in the catalogue; no provider serves it any more.',
      architecture: {
        input_modalities: ['text'],
        output_modalities: ['text'],
        modality: 'text->text',
        instruct_type: 'none',
        tokenizer: 'GPT',
      },
      endpoints: [],
    },
  ],
]);

// ---------------------------------------------------------------- interns
const STATUSES = [
  'awaiting_chat_install',
  'queued',
  'provisioning',
  'running',
  'failed',
  'stopped',
  'destroying',
  'destroy_failed',
];

type Intern = Json & { id: string; status: string; workspaceId: string; createdAt: string };

function seedInterns(ws: Workspace, count: number, seed: number): Intern[] {
  const rnd = mulberry32(seed);
  const out: Intern[] = [];
  let t = Date.parse('2025-03-01T08:00:00.000Z');
  for (let i = 0; i < count; i++) {
    // Every 7th intern shares its createdAt with the previous one (tie-break test).
    if (i % 7 !== 6) t += Math.floor(rnd() * 36 * 3600_000) + 1;
    const status = STATUSES[(i * 3 + seed) % STATUSES.length];
    const name = `${ws.slug.replace('ws_', '')}-intern-${pad(i + 1, 2)}`;
    const failed = status === 'failed' || status === 'destroy_failed';
    out.push({
      id: uuidFrom(`intern:${ws.slug}:${i}`),
      name,
      description: `Intern ${i + 1} of ${ws.slug}`,
      hostname: `${name}.interns.indep.test`,
      model: i % 3 === 0 ? 'indep-labs/retired-1b' : MODEL_ID,
      status,
      workspaceId: ws.uuid,
      vault_id: uuidFrom(`vault:${ws.slug}:${i}`),
      // OPEN (2.5): non-null attached_vault_id is a UUID string, instructions and
      // lastFailureMessage are strings, progress is {stage, percent}.
      attached_vault_id: i % 2 === 0 ? uuidFrom(`attached:${ws.slug}:${i}`) : null,
      instructions: i % 3 === 1 ? null : `Help the team with task #${i + 1}.`,
      lastFailureMessage: failed ? `Provisioning step ${1 + (i % 4)} failed: exit status 1` : null,
      progress:
        status === 'queued'
          ? { stage: 'waiting_for_capacity', percent: 0 }
          : status === 'provisioning'
            ? { stage: 'installing_dependencies', percent: 10 + (i % 9) * 10 }
            : null,
      createdAt: new Date(t).toISOString(),
      updatedAt: new Date(t + Math.floor(rnd() * 3 * 3600_000)).toISOString(),
    });
  }
  // Store in a scrambled order so that the listing really has to sort.
  return out
    .map((x) => [rnd(), x] as [number, Intern])
    .sort((a, b) => a[0] - b[0])
    .map((p) => p[1]);
}

const INTERNS: Intern[] = [...seedInterns(WS_INDEP, 40, 3), ...seedInterns(WS_OTHER, 12, 5)];

// OPEN (2.6): "newest first" = createdAt descending; ties by id descending.
function newestFirst(a: Intern, b: Intern): number {
  const d = Date.parse(b.createdAt) - Date.parse(a.createdAt);
  return d !== 0 ? d : a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}

// OPEN (4.3): a regional host name is one whose first DNS label is a region
// code such as "eu", "us", "us-east-1", "ap-southeast-2" (and has >= 3 labels).
function isRegionalHost(host: string | undefined): boolean {
  if (!host) return false;
  const name = host.replace(/:\d+$/, '').toLowerCase();
  const labels = name.split('.');
  if (labels.length < 3 || /^[\d.]+$/.test(name) || name.startsWith('[')) return false;
  return /^(us|eu|ap|sa|ca|me|af|au|jp|in|uk)(-[a-z]+)?(-\d+)?$/.test(labels[0]!);
}

// ---------------------------------------------------------------- responses
class HttpError extends Error {
  status: number;
  body: Json;
  constructor(status: number, body: Json) {
    super(`HTTP ${status}`);
    this.status = status;
    this.body = body;
  }
}

function send(res: http.ServerResponse, status: number, body: Json, headers: Record<string, string> = {}) {
  if (res.headersSent) return;
  const text = JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

// Error body builders, one per operation (section 7).
const filesError = (status: number, message: string, userId: string | null, metadata: Json = null) =>
  new HttpError(status, { error: { code: status, message, metadata }, service_metadata: null, user_id: userId });
const modelError = (status: number, message: string) => new HttpError(status, { error: { code: status, message } });
// OPEN (7.3): string codes map to invalid_body -> 400, not_found -> 404, internal_error -> 500.
const INTERN_STATUS: Record<string, number> = { invalid_body: 400, not_found: 404, internal_error: 500 };
function internError(code: string | number, message: string, metadata?: Json) {
  const status = typeof code === 'number' ? code : INTERN_STATUS[code]!;
  return new HttpError(status, { error: metadata ? { code, message, metadata } : { code, message } });
}

// OPEN: a query parameter given more than once is invalid (400 on both list operations).
function singleParams(q: URLSearchParams, bad: (name: string) => HttpError): Map<string, string> {
  const m = new Map<string, string>();
  for (const [k, v] of q) {
    if (m.has(k)) throw bad(k);
    m.set(k, v);
  }
  return m;
}

// ---------------------------------------------------------------- rate limit
// OPEN (8.3): fixed window of RATE_WINDOW_MS per API key, RATE_MAX requests,
// applied to listContainerFiles only; 429 carries a Retry-After header.
const rateWindows = new Map<string, { start: number; count: number }>();
function rateLimited(userId: string): number {
  const now = Date.now();
  let w = rateWindows.get(userId);
  if (!w || now - w.start >= RATE_WINDOW_MS) rateWindows.set(userId, (w = { start: now, count: 0 }));
  w.count++;
  return w.count > RATE_MAX ? Math.ceil((w.start + RATE_WINDOW_MS - now) / 1000) : 0;
}

// ---------------------------------------------------------------- handlers
type Ctx = { req: http.IncomingMessage; res: http.ServerResponse; query: URLSearchParams };

// Order of checks (OPEN): 401 -> 429 -> 400 -> 403 -> 200.
function listContainerFiles(ctx: Ctx, rawContainerId: string) {
  const auth = authenticate(ctx.req);
  if (!auth.ok) throw filesError(401, auth.missing ? 'Missing Authentication header' : 'Invalid API key', null);
  const userId = auth.key.userId;
  const retry = rateLimited(userId);
  if (retry > 0) {
    const e = filesError(429, 'Rate limit exceeded', userId, { retry_after_seconds: retry });
    send(ctx.res, e.status, e.body, { 'Retry-After': String(retry) });
    return;
  }
  const invalid = (param: string, reason: string) =>
    filesError(400, 'Invalid request parameters', userId, { param, reason });

  let containerId: string;
  try {
    containerId = decodeURIComponent(rawContainerId);
  } catch {
    throw invalid('container_id', 'malformed percent-encoding');
  }
  if (!CONTAINER_ID_RE.test(containerId)) throw invalid('container_id', 'not a canonical container id');

  const params = singleParams(ctx.query, (k) => invalid(k, 'parameter given more than once'));
  let limit = FILES_DEFAULT_LIMIT;
  if (params.has('limit')) {
    const raw = params.get('limit')!;
    limit = INT_RE.test(raw) ? Number(raw) : NaN;
    if (!(limit >= 1 && limit <= FILES_MAX_LIMIT))
      throw invalid('limit', `must be an integer from 1 to ${FILES_MAX_LIMIT}`);
  }
  let after: Buffer | null = null;
  if (params.has('after')) {
    // OPEN: an empty "after=" is not a container file id -> 400.
    after = decodeFileId(params.get('after')!);
    if (!after) throw invalid('after', 'not a container file id');
  }

  const container = CONTAINERS.get(containerId);
  // OPEN: a container of another workspace is forbidden (403).
  if (container && container.workspace.uuid !== auth.key.workspace.uuid) {
    throw filesError(403, 'This API key may not access this container', userId);
  }
  const page = scanFiles(container ? container.objects : [], after, limit);
  const data = page.files.map((f) => ({
    id: fileId(f.path),
    object: 'container.file',
    container_id: containerId,
    bytes: f.bytes,
    created_at: f.syncedAt,
    path: f.path,
    source: 'assistant',
  }));
  send(ctx.res, 200, {
    object: 'list',
    data,
    first_id: data.length ? data[0]!.id : null,
    last_id: page.lastPath === null ? null : fileId(page.lastPath),
    has_more: page.hasMore,
  });
}

function listModelEndpoints(ctx: Ctx, rawAuthor: string, rawSlug: string) {
  const auth = authenticate(ctx.req);
  // OPEN (7.2): 401 is not listed for this operation but section 5 requires it.
  if (!auth.ok) throw modelError(401, auth.missing ? 'Missing Authentication header' : 'Invalid API key');
  let id: string;
  try {
    id = `${decodeURIComponent(rawAuthor)}/${decodeURIComponent(rawSlug)}`;
  } catch {
    throw modelError(404, 'Resource not found');
  }
  // OPEN: model ids match exactly (case-sensitive); query parameters are ignored.
  const model = MODELS.get(id);
  if (!model) throw modelError(404, 'Resource not found');
  send(ctx.res, 200, { data: model });
}

// Query parameters (OPEN, 4.3): limit, status, workspaceId, and the cursor
// "after" = id of the last intern of the previous page.
// Order of checks (OPEN): 401 -> regional host 403 -> 400 -> workspace 403 -> cursor 404.
function listInterns(ctx: Ctx) {
  const auth = authenticate(ctx.req);
  if (!auth.ok) throw internError(401, 'Invalid or missing API key');
  if (isRegionalHost(ctx.req.headers.host)) {
    throw internError(403, 'Forbidden', { reason: 'regional host names are not accepted for this operation' });
  }
  const invalid = (param: string, reason: string) =>
    internError('invalid_body', 'Invalid list query', { issues: [{ param, reason }] });
  const params = singleParams(ctx.query, (k) => invalid(k, 'parameter given more than once'));

  let limit = INTERNS_DEFAULT_LIMIT;
  if (params.has('limit')) {
    const raw = params.get('limit')!;
    limit = INT_RE.test(raw) ? Number(raw) : NaN;
    if (!(limit >= 1 && limit <= INTERNS_MAX_LIMIT))
      throw invalid('limit', `must be an integer from 1 to ${INTERNS_MAX_LIMIT}`);
  }
  let statuses: Set<string> | null = null;
  if (params.has('status')) {
    // OPEN: exact values separated by single commas; no blanks, no empty items.
    const parts = params.get('status')!.split(',');
    for (const p of parts) if (!STATUSES.includes(p)) throw invalid('status', `unknown status "${p}"`);
    statuses = new Set(parts);
  }
  let workspaceFilter: string | null = null;
  if (params.has('workspaceId')) {
    workspaceFilter = params.get('workspaceId')!;
    if (!UUID_RE.test(workspaceFilter)) throw invalid('workspaceId', 'must be a UUID');
  }
  let afterId: string | null = null;
  if (params.has('after')) {
    afterId = params.get('after')!;
    if (!UUID_RE.test(afterId)) throw invalid('after', 'must be an intern id (UUID)');
  }

  const ws = auth.key.workspace;
  if (workspaceFilter !== null && workspaceFilter.toLowerCase() !== ws.uuid) {
    throw internError(403, 'Forbidden', { reason: 'workspaceId does not match the workspace of the API key' });
  }
  let visible = INTERNS.filter((x) => x.workspaceId === ws.uuid).sort(newestFirst);
  if (afterId !== null) {
    const cursor = visible.find((x) => x.id === afterId!.toLowerCase());
    if (!cursor) throw internError('not_found', 'Intern not found');
    visible = visible.filter((x) => newestFirst(x, cursor) > 0);
  }
  if (statuses) visible = visible.filter((x) => statuses!.has(x.status));
  send(ctx.res, 200, { data: visible.slice(0, limit), has_more: visible.length > limit });
}

// ---------------------------------------------------------------- routing
type Route = { op: 'files' | 'models' | 'interns'; run: (ctx: Ctx) => void };

// Routes on the raw (still percent-encoded) path, split on "/". No trailing
// slash or empty segment is accepted (OPEN): such paths are 404.
function route(pathname: string): Route | null {
  if (!pathname.startsWith('/v1/')) return null;
  const seg = pathname.slice(4).split('/');
  if (seg.some((s) => s === '')) return null;
  if (seg.length === 3 && seg[0] === 'containers' && seg[2] === 'files') {
    return { op: 'files', run: (ctx) => listContainerFiles(ctx, seg[1]!) };
  }
  if (seg.length === 4 && seg[0] === 'models' && seg[3] === 'endpoints') {
    return { op: 'models', run: (ctx) => listModelEndpoints(ctx, seg[1]!, seg[2]!) };
  }
  if (seg.length === 1 && seg[0] === 'interns') return { op: 'interns', run: listInterns };
  return null;
}

function internalError(op: Route['op']): HttpError {
  if (op === 'files') return filesError(500, 'Internal Server Error', null);
  if (op === 'models') return modelError(500, 'Internal Server Error');
  return internError('internal_error', 'The request could not be completed');
}

const server = http.createServer((req, res) => {
  const rawUrl = req.url ?? '/';
  const qIndex = rawUrl.indexOf('?');
  const pathname = qIndex < 0 ? rawUrl : rawUrl.slice(0, qIndex);
  const query = new URLSearchParams(qIndex < 0 ? '' : rawUrl.slice(qIndex + 1));
  const r = route(pathname);
  // OPEN: unknown paths -> 404, other methods on known paths -> 405 (Allow: GET).
  if (!r) return send(res, 404, { error: { code: 404, message: 'Not Found' } });
  if (req.method !== 'GET') {
    return send(res, 405, { error: { code: 405, message: 'Method Not Allowed' } }, { Allow: 'GET' });
  }
  // Only list interns documents a 408; handlers are synchronous, so this
  // guard fires only if a handler were ever to stall.
  const timer =
    r.op === 'interns'
      ? setTimeout(() => {
          const e = internError(408, 'Request timed out');
          send(res, e.status, e.body);
        }, HANDLER_TIMEOUT_MS)
      : null;
  try {
    r.run({ req, res, query });
  } catch (err) {
    const e = err instanceof HttpError ? err : internalError(r.op);
    if (!(err instanceof HttpError)) console.error(err);
    send(res, e.status, e.body);
  } finally {
    if (timer) clearTimeout(timer);
  }
});

server.listen(PORT, '127.0.0.1', () => {
  const addr = server.address();
  const port = typeof addr === 'object' && addr ? addr.port : PORT;
  process.stdout.write(`listening http://127.0.0.1:${port}/v1\n`);
});
