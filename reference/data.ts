/**
 * The reference's deterministic data set: containers (4.1), models (4.2) and interns (4.3).
 * Everything derives from fixed seeds (mulberry32), so every start serves identical content.
 */
import { createHash } from 'node:crypto';

// ---------------------------------------------------------------------------------------------
// Seeded randomness
// ---------------------------------------------------------------------------------------------

/** mulberry32: tiny 32-bit PRNG, deterministic for a seed. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function intIn(rnd: () => number, lo: number, hi: number): number {
  return lo + Math.floor(rnd() * (hi - lo + 1));
}
function pick<T>(rnd: () => number, xs: readonly T[]): T {
  const x = xs[Math.floor(rnd() * xs.length)];
  if (x === undefined) throw new Error('pick from empty list');
  return x;
}
const HEX_BYTE = Array.from({ length: 256 }, (_, x) => x.toString(16).padStart(2, '0'));
/** RFC 4122 version-4-shaped UUID from the PRNG (thousands are made as the reference starts: by table, not by array methods). */
function uuid(rnd: () => number): string {
  let h = '';
  for (let i = 0; i < 16; i++) {
    let x = Math.floor(rnd() * 256);
    if (i === 6) x = (x & 0x0f) | 0x40;
    else if (i === 8) x = (x & 0x3f) | 0x80;
    h += (i === 4 || i === 6 || i === 8 || i === 10 ? '-' : '') + HEX_BYTE[x]!;
  }
  return h;
}
/** 32 hex characters that look secret but are fixed. */
function secretHex(label: string): string {
  return createHash('sha256').update(`conformance-reference/${label}`).digest('hex').slice(0, 32);
}

// ---------------------------------------------------------------------------------------------
// Keys and workspaces (section 5; 4.3: the key selects caller and workspace)
// ---------------------------------------------------------------------------------------------

export const MANAGEMENT_KEY = `ref_mgmt_${secretHex('management-key')}`;
export const RESTRICTED_KEY = `ref_user_${secretHex('restricted-key')}`;

const wsRnd = mulberry32(0x5eed_0001);
/** Workspace of both reference keys. */
export const WORKSPACE_A = uuid(wsRnd);
/** A workspace the keys do not belong to. */
export const WORKSPACE_B = uuid(wsRnd);

// ---------------------------------------------------------------------------------------------
// Containers (2.1, 4.1)
// ---------------------------------------------------------------------------------------------

/** One object of a container's key space; hidden ones are bookkeeping and never listed. */
export interface StoredObject {
  path: string;
  key: Buffer; // UTF-8 bytes of path, the sort key
  hidden: boolean;
  bytes: number;
  created_at: number;
}

export interface Container {
  /** All objects in byte-wise UTF-8 path order. */
  objects: readonly StoredObject[];
  /** nextVisible[i] = smallest j >= i with objects[j] visible, or objects.length. */
  nextVisible: Int32Array;
  visibleCount: number;
}

/** Fixed base epoch seconds (2024-06-01T00:00:00Z) for created_at. */
const BASE_EPOCH_S = 1_717_200_000;

export const CONTAINER_MAIN = 'cntr_6f1d2a9c4e7b41f8a3d5e6c7b8a9f012';
/** 4.1: a restarted session is a separate container whose id carries `-r<nonce>`. */
export const CONTAINER_RESTARTED = `${CONTAINER_MAIN}-r9k2x`;
/** 4.1: `sess_` + the sanitized session key (raw session id was e.g. "Demo User#42"). */
export const CONTAINER_SESSION = 'sess_demo-user_42';
export const CONTAINER_EMPTY = 'sess_empty';

/**
 * Hand-picked visible paths that make ordering and encoding hard:
 * - the prefix family a, "a b", a.b, a/b, a-b, a_b, A, B, b (byte order != locale order);
 * - names differing only in case;
 * - characters whose UTF-8 order differs from UTF-16 order (U+E000, U+FFFD vs astral emoji);
 * - NFC vs NFD (é vs e + combining acute), CJK, spaces, URL-special characters;
 * - paths whose standard base64 contains `+` or `/` (so base64 and base64url differ).
 * No visible path starts with `~~~~` or a non-ASCII character, so the trailing hidden run is last.
 */
const HARD_PATHS: readonly string[] = [
  ' leading space.txt',
  '!important.txt',
  '#hash.md',
  '-dash-first.txt',
  'a',
  'a b',
  'a.b',
  'a/b',
  'a-b',
  'a_b',
  'A',
  'B',
  'b',
  'a/b/c',
  'ab',
  'aB',
  'Ab',
  'AB',
  'README.md',
  'readme.md',
  'ReadMe.md',
  'Makefile',
  'makefile',
  'MAKEFILE',
  'intl/caf\u00e9.md',
  'intl/cafe\u0301.md',
  'intl/\u65e5\u672c/\u30e1\u30e2.txt',
  'intl/\u65e5\u672c\u8a9e.txt',
  'intl/\ue000-private-use.txt',
  'intl/\ufffd-replacement.txt',
  'intl/\uffee-halfwidth.txt',
  'intl/\u{1f600}-grin.txt',
  'intl/\u{1d11e}-clef.txt',
  'intl/\u{1f468}\u200d\u{1f469}\u200d\u{1f467}.txt',
  'intl/\u00ff.txt',
  'intl/\u0100.txt',
  'intl/z.txt',
  'intl/Z.txt',
  'intl/\u00c5ngstr\u00f6m.txt',
  'with space/file name.txt',
  'with space/ leading.txt',
  'with space/trailing .txt',
  'with  two  spaces.txt',
  'url/q?x=1&y=2.txt',
  'url/hash#frag.txt',
  'url/percent%20literal.txt',
  'url/plus+sign.txt',
  'url/semi;colon.txt',
  'url/back\\slash.txt',
  'url/quote"d.txt',
  "url/apos'.txt",
  'b64/~~~.bin',
  'b64/???.bin',
  'b64/>>>.bin',
  'b64/\u00ff\u00fe.bin',
  'b64/~~.bin',
  'src/a/b/c/d/e/f/g/h/i/j/deep.ts',
  'src/a/b/c/d/e/f/g/h/i/j/k/deeper.ts',
  'src/a/b/c/sibling.ts',
  'dots/..double',
  'dots/.single',
  'dots/trailing.',
  'm/alpha.txt',
  'm/zeta.txt',
  '~tilde-first.txt',
];

const DIRS = [
  'src',
  'src/components',
  'src/lib',
  'src/lib/utils',
  'data',
  'data/raw',
  'data/processed',
  'logs',
  'notes',
  'out',
  'reports/2024',
  'reports/2025',
  'tmp',
  'Images',
  'images',
  'assets/fonts',
  'charts',
  'intl/\u65e5\u672c',
  'intl/\u00e9t\u00e9',
  'work dir',
  'Work Dir',
];
const WORDS = [
  'alpha',
  'beta',
  'gamma',
  'delta',
  'summary',
  'plot',
  'draft',
  'final',
  'Final',
  'report',
  'sales',
  'q1',
  'q2',
  'cache',
  'index',
  'model',
  'weights',
  'chart',
  'notes',
  'r\u00e9sum\u00e9',
  'na\u00efve',
  'data',
  'x',
  'y',
  '\u6570\u636e',
  '\u{1f4ca}',
  'A',
  'z',
];
const EXTS = ['.txt', '.csv', '.json', '.py', '.md', '.png', '', '.tar.gz', '.PNG', '.log'];

// More than 1,300 files, so the last ones sit past several scan-bound pages of a traversal at limit
// 1000 and far beyond what any check samples (a bad record is rarely on the first page).
const MAIN_VISIBLE = 1350;
const HIDDEN_RUN_SYNC = 150; // `.sync/...`: right after the first few visible files
const HIDDEN_RUN_MIDDLE = 150; // `m/.bookkeeping/...`: between m/ and the rest
const HIDDEN_RUN_TRAILING = 300; // `~~~~journal/...`: after the last visible file

function buildContainer(entries: ReadonlyArray<{ path: string; hidden: boolean }>, seed: number): Container {
  const rnd = mulberry32(seed);
  const seen = new Set<string>();
  const objects: StoredObject[] = [];
  for (const e of entries) {
    if (seen.has(e.path)) throw new Error(`duplicate path in reference data: ${JSON.stringify(e.path)}`);
    seen.add(e.path);
    objects.push({
      path: e.path,
      key: Buffer.from(e.path, 'utf8'),
      hidden: e.hidden,
      bytes: intIn(rnd, 0, 5_000_000),
      created_at: BASE_EPOCH_S + intIn(rnd, 0, 90 * 86_400),
    });
  }
  // Byte-wise: the keys' bytes as Latin-1 strings compare as the bytes do (one native call per key, not per comparison).
  const byBytes = objects
    .map((o) => ({ o, bytes: o.key.toString('latin1') }))
    .sort((x, y) => (x.bytes < y.bytes ? -1 : x.bytes > y.bytes ? 1 : 0));
  return indexContainer(byBytes.map((x) => x.o));
}

/** A container over objects already in the order it lists them. */
export function indexContainer(objects: readonly StoredObject[]): Container {
  const nextVisible = new Int32Array(objects.length + 1);
  nextVisible[objects.length] = objects.length;
  for (let i = objects.length - 1; i >= 0; i--) {
    nextVisible[i] = objects[i]?.hidden ? (nextVisible[i + 1] ?? objects.length) : i;
  }
  return { objects, nextVisible, visibleCount: objects.filter((o) => !o.hidden).length };
}

/**
 * More hidden bookkeeping objects in the main container than its own (8 rule 1: the scan bound's value
 * is not shown, and nothing in the document bounds how many hidden objects lie in a row): `length` of
 * them in a row after every `every`-th visible file (the first included), among only every
 * `visibleEvery`-th visible file of the container when that is above 1. A conformant variant's data
 * shape (reference/variants.ts); the other containers keep theirs.
 */
export interface HiddenRuns {
  length: number;
  every: number;
  visibleEvery?: number;
  /** Visible files of the main container before visibleEvery keeps some (its own 1,350 when absent). */
  files?: number;
  /**
   * Hidden objects in a row before the first visible file, the listing's start (4.1 rule 3: `data`
   * may be empty from the first page on). Their paths " .~leading/…" sort before every visible path.
   */
  leading?: number;
}

/**
 * A listing far longer than the reference's own: 20,000 files with 3,000 hidden bookkeeping objects in a
 * row after every 2,000th (the first included), about 500 pages at limit 1000, 470 of them empty at the
 * default scan bound. The shape of variant large-listing and of the faults that hide one bad record near
 * its end: 50,000 objects, built once per process in well under a second.
 */
export const LARGE_LISTING: HiddenRuns = { length: 3000, every: 2000, files: 20_000 };

function mainContainer(runs?: HiddenRuns): Container {
  const rnd = mulberry32(0xc0ffee);
  const visible = new Set<string>(HARD_PATHS);
  const files = runs?.files ?? MAIN_VISIBLE;
  while (visible.size < files) {
    const dir = pick(rnd, DIRS);
    const name = `${pick(rnd, WORDS)}${pick(rnd, ['-', '_', ' ', '.', ''])}${intIn(rnd, 0, 999)}${pick(rnd, EXTS)}`;
    // Top-level names only when ASCII-first, so the trailing hidden run stays last.
    visible.add(rnd() < 0.08 && /^[ -}]/.test(name) ? name : `${dir}/${name}`);
  }
  const entries: Array<{ path: string; hidden: boolean }> = [...visible].map((path) => ({ path, hidden: false }));
  // Scattered bookkeeping objects next to about one visible file in 25.
  for (const path of visible) if (rnd() < 0.04) entries.push({ path: `${path}.~sync`, hidden: true });
  const pad = (i: number) => String(i).padStart(3, '0');
  for (let i = 0; i < HIDDEN_RUN_SYNC; i++) entries.push({ path: `.sync/state-${pad(i)}`, hidden: true });
  for (let i = 0; i < HIDDEN_RUN_MIDDLE; i++) entries.push({ path: `m/.bookkeeping/chunk-${pad(i)}`, hidden: true });
  for (let i = 0; i < HIDDEN_RUN_TRAILING; i++) entries.push({ path: `~~~~journal/${pad(i)}.wal`, hidden: true });
  const c = buildContainer(runs ? withHiddenRuns(entries, runs) : entries, 0xfeed);
  // Self-check: the trailing run really is the end of the key space.
  if (c.objects.slice(-HIDDEN_RUN_TRAILING).some((o) => !o.hidden)) throw new Error('trailing hidden run is not last');
  return c;
}

/**
 * The entries with the runs of `runs` added. A run after the visible path p is named p + ".~journal/…":
 * it sorts right after p or after a sibling that shares p's prefix, and in either place its objects
 * lie in a row between two visible files. Kept files are chosen in byte-wise path order.
 */
function withHiddenRuns(
  entries: ReadonlyArray<{ path: string; hidden: boolean }>,
  runs: HiddenRuns,
): Array<{ path: string; hidden: boolean }> {
  // Byte-wise, by the UTF-8 bytes as Latin-1 strings (one native call per path, not per comparison).
  const visible = entries
    .filter((e) => !e.hidden)
    .map((e) => ({ path: e.path, bytes: Buffer.from(e.path, 'utf8').toString('latin1') }))
    .sort((x, y) => (x.bytes < y.bytes ? -1 : x.bytes > y.bytes ? 1 : 0));
  const keepEvery = Math.max(1, runs.visibleEvery ?? 1);
  const kept = new Set(visible.filter((_, i) => i % keepEvery === 0).map((e) => e.path));
  const out = entries.filter((e) => e.hidden || kept.has(e.path));
  const width = String(runs.length).length;
  [...kept].forEach((path, i) => {
    if (i % Math.max(1, runs.every) !== 0) return;
    for (let k = 0; k < runs.length; k++)
      out.push({ path: `${path}.~journal/${String(k).padStart(width, '0')}`, hidden: true });
  });
  // " ." sorts before " leading space.txt", the first visible path, in UTF-8 and UTF-16 alike.
  const leading = runs.leading ?? 0;
  for (let k = 0; k < leading; k++)
    out.push({ path: ` .~leading/${String(k).padStart(String(leading).length, '0')}`, hidden: true });
  return out;
}

function smallContainer(seed: number, prefix: string, count: number, hidden: number): Container {
  const rnd = mulberry32(seed);
  const entries: Array<{ path: string; hidden: boolean }> = [];
  for (let i = 0; i < count; i++) {
    entries.push({
      path: `${prefix}/${pick(rnd, WORDS)}-${String(i).padStart(2, '0')}${pick(rnd, EXTS)}`,
      hidden: false,
    });
  }
  for (let i = 0; i < hidden; i++)
    entries.push({ path: `.sync/${prefix}-${String(i).padStart(3, '0')}`, hidden: true });
  return buildContainer(entries, seed + 1);
}

const shapedMains = new Map<string, Container>();

/**
 * The container `containerId` as served with `runs` (the main container only; built once per shape),
 * or as CONTAINERS holds it.
 */
export function containerWith(containerId: string, runs: HiddenRuns | null): Container | undefined {
  if (runs === null || containerId !== CONTAINER_MAIN) return CONTAINERS.get(containerId);
  const key = JSON.stringify(runs);
  let c = shapedMains.get(key);
  if (!c) shapedMains.set(key, (c = mainContainer(runs)));
  return c;
}

const withoutFilesViews = new WeakMap<Container, Container>();
/** The container with its hidden objects only, no file (built once per container). */
export function withoutFiles(c: Container): Container {
  let view = withoutFilesViews.get(c);
  if (!view) withoutFilesViews.set(c, (view = indexContainer(c.objects.filter((o) => o.hidden))));
  return view;
}

/** Containers by id. An id not in this map is answered with an empty list (see routes/container-files.ts). */
export const CONTAINERS: ReadonlyMap<string, Container> = new Map([
  [CONTAINER_MAIN, mainContainer()],
  [CONTAINER_RESTARTED, smallContainer(0x0a11, 'restarted \u00e9', 30, 5)],
  [CONTAINER_SESSION, smallContainer(0x0b22, 'session', 20, 3)],
  // More hidden objects than the default scan bound and nothing visible.
  [CONTAINER_EMPTY, smallContainer(0x0c33, 'empty', 0, 70)],
]);

/** Visible paths of a container in byte-wise order, as served with `runs` (see containerWith). */
export function visiblePaths(containerId: string, runs: HiddenRuns | null = null): string[] {
  return (containerWith(containerId, runs)?.objects ?? []).filter((o) => !o.hidden).map((o) => o.path);
}

// ---------------------------------------------------------------------------------------------
// Models (2.3, 2.4, 4.2)
// ---------------------------------------------------------------------------------------------

export interface Percentiles {
  p50: number;
  p75: number;
  p90: number;
  p99: number;
}
export interface Endpoint {
  name: string;
  model_id: string;
  model_name: string;
  provider_name: string;
  tag: string;
  context_length: number;
  max_completion_tokens: number;
  max_prompt_tokens: number;
  quantization: string;
  status: number;
  supported_parameters: string[];
  supports_implicit_caching: boolean;
  pricing: { prompt: string; completion: string; request: string; image: string };
  latency_last_30m: Percentiles;
  throughput_last_30m: Percentiles;
  uptime_last_5m: number;
  uptime_last_30m: number;
  uptime_last_1d: number;
}
export interface Model {
  id: string;
  name: string;
  created: number;
  description: string;
  architecture: {
    input_modalities: string[];
    output_modalities: string[];
    modality: string;
    instruct_type: string;
    tokenizer: string;
  };
  endpoints: Endpoint[];
}

const PARAMS = [
  'max_tokens',
  'temperature',
  'top_p',
  'stop',
  'frequency_penalty',
  'presence_penalty',
  'seed',
  'tools',
  'tool_choice',
  'response_format',
  'logprobs',
  'top_k',
];

/** One endpoint's own values (the rest it draws from the model's random stream). */
type EndpointRow = [
  provider: string,
  tag: string,
  quantization: string,
  prompt: string,
  completion: string,
  request: string,
  image: string,
  caching: boolean,
];

function endpoint(
  rnd: () => number,
  modelId: string,
  modelName: string,
  [provider, tag, quantization, prompt, completion, request, image, caching]: EndpointRow,
): Endpoint {
  const lat = intIn(rnd, 150, 900);
  const thr = intIn(rnd, 20, 140);
  const ctx = pick(rnd, [8192, 32768, 128000, 131072]);
  return {
    name: `${provider} | ${modelId}`,
    model_id: modelId,
    model_name: modelName,
    provider_name: provider,
    tag,
    context_length: ctx,
    max_completion_tokens: pick(rnd, [4096, 8192, 16384]),
    max_prompt_tokens: ctx - 1024,
    quantization,
    status: 0,
    supported_parameters: PARAMS.filter(() => rnd() < 0.7),
    supports_implicit_caching: caching,
    pricing: { prompt, completion, request, image },
    latency_last_30m: {
      p50: lat,
      p75: Math.round(lat * 1.3),
      p90: Math.round(lat * 1.8),
      p99: Math.round(lat * 3.1) + 0.5,
    },
    throughput_last_30m: {
      p50: thr + 0.25,
      p75: Math.round(thr * 0.8),
      p90: Math.round(thr * 0.6),
      p99: Math.round(thr * 0.3),
    },
    uptime_last_5m: 100,
    uptime_last_30m: Math.round(9000 + rnd() * 1000) / 100,
    uptime_last_1d: Math.round(9500 + rnd() * 500) / 100,
  };
}

/** A model's endpoints, drawn from `rnd` in the rows' order. */
function endpointsOf(rnd: () => number, modelId: string, modelName: string, rows: EndpointRow[]): Endpoint[] {
  return rows.map((row) => endpoint(rnd, modelId, modelName, row));
}

function buildModels(): Map<string, Model> {
  const rnd = mulberry32(0x0de1);
  const gpt = 'openai/gpt-4o';
  const llama = 'meta-llama/llama-3.1-70b-instruct';
  const mistral = 'mistralai/mistral-7b-instruct:free';
  const models: Model[] = [
    {
      id: gpt,
      name: 'OpenAI: GPT-4o',
      created: 1_715_367_049,
      description: 'GPT-4o ("o" for "omni") accepts text and image inputs and produces text outputs.',
      architecture: {
        input_modalities: ['text', 'image', 'file'],
        output_modalities: ['text'],
        modality: 'text+image->text',
        instruct_type: 'chatml',
        tokenizer: 'GPT',
      },
      endpoints: endpointsOf(rnd, gpt, 'OpenAI: GPT-4o', [
        ['OpenAI', 'openai', 'unknown', '0.0000025', '0.00001', '0', '0.003613', true],
        ['Azure', 'azure', 'unknown', '0.0000025', '0.00001', '0', '0.003613', false],
        ['Together', 'together/fp8', 'fp8', '0.000003', '0.000012', '0', '0', false],
        ['Example Cloud', 'example-cloud', 'bf16', '0.0000028', '0.0000111', '0.0012', '0', true],
      ]),
    },
    {
      id: llama,
      name: 'Meta: Llama 3.1 70B Instruct',
      created: 1_721_692_800,
      description: "Meta's 70B instruct-tuned model, optimised for dialogue.",
      architecture: {
        input_modalities: ['text'],
        output_modalities: ['text'],
        modality: 'text->text',
        instruct_type: 'llama3',
        tokenizer: 'Llama3',
      },
      endpoints: endpointsOf(rnd, llama, 'Meta: Llama 3.1 70B Instruct', [
        ['DeepInfra', 'deepinfra/bf16', 'bf16', '0.00000023', '0.0000004', '0', '0', false],
        ['Lambda', 'lambda/fp8', 'fp8', '0.00000012', '0.0000003', '0', '0', false],
        ['Fireworks', 'fireworks', 'fp16', '0.0000009', '0.0000009', '0', '0', true],
        ['Hyperbolic', 'hyperbolic/int8', 'int8', '0.0000004', '0.0000004', '0.0001', '0', false],
        ['Novita', 'novita', 'fp8', '0.00000034', '0.00000039', '0', '0', false],
      ]),
    },
    {
      id: mistral,
      name: 'Mistral: Mistral 7B Instruct (free)',
      created: 1_716_768_000,
      description: 'A 7.3B parameter model; the slug carries a colon variant suffix.',
      architecture: {
        input_modalities: ['text'],
        output_modalities: ['text'],
        modality: 'text->text',
        instruct_type: 'mistral',
        tokenizer: 'Mistral',
      },
      endpoints: endpointsOf(rnd, mistral, 'Mistral: Mistral 7B Instruct (free)', [
        ['Mistral', 'mistral', 'bf16', '0', '0', '0', '0', false],
        ['Chutes', 'chutes/fp8', 'fp8', '0', '0', '0', '0', false],
        ['Kluster', 'kluster/fp8', 'fp8', '0', '0', '0', '0', false],
        ['NextBit', 'nextbit', 'fp16', '0', '0', '0', '0', true],
      ]),
    },
  ];
  return new Map(models.map((m) => [m.id, m]));
}

export const MODELS: ReadonlyMap<string, Model> = buildModels();
export const MODEL_FIXTURE = 'openai/gpt-4o';
export const MISSING_MODEL_FIXTURE = 'openai/gpt-0-does-not-exist';
/** A model of another workspace, which the reference's keys may not read (5 rule 3: 403). */
export const FORBIDDEN_MODEL_FIXTURE = 'private-lab/internal-ft';

// ---------------------------------------------------------------------------------------------
// Interns (2.5, 2.6, 3, 4.3)
// ---------------------------------------------------------------------------------------------

/**
 * Section 3's states, the reference's own list: reference/ imports only os/, one implementation among
 * many, so the suite's list (generators/arbitraries/interns-status.ts) never agrees with it by sharing code.
 */
export const INTERN_STATUSES = [
  'awaiting_chat_install',
  'queued',
  'provisioning',
  'running',
  'failed',
  'stopped',
  'destroying',
  'destroy_failed',
] as const;
export type InternStatus = (typeof INTERN_STATUSES)[number];

export interface Intern {
  id: string;
  name: string;
  description: string;
  hostname: string;
  model: string;
  status: InternStatus;
  workspaceId: string;
  vault_id: string;
  attached_vault_id: string | null;
  instructions: string | null;
  lastFailureMessage: string | null;
  progress: null | number | { stage: string; percent: number };
  createdAt: string;
  updatedAt: string;
}

const INTERN_WORDS = ['atlas', 'birch', 'cobalt', 'dune', 'ember', 'fjord', 'garnet', 'harbor', 'iris', 'juniper'];
const INTERN_DOMAIN = 'interns.example.dev';
/** 2024-01-01T00:00:00.000Z */
const BASE_MS = 1_704_067_200_000;

function buildInterns(): Intern[] {
  const rnd = mulberry32(0x1a7e);
  const out: Intern[] = [];
  const models = [...MODELS.keys()];
  const make = (ws: string, count: number, word0: number): void => {
    const times: number[] = [];
    for (let i = 0; i < count; i++) times.push(BASE_MS + i * 3_600_000 + intIn(rnd, 0, 3_599_999));
    // A few interns share one createdAt millisecond: the order among them is id descending.
    for (const at of [37, 38, 200, 201, 202].filter((k) => k < count)) times[at] = times[at - 1] ?? BASE_MS;
    for (let i = 0; i < count; i++) {
      const status: InternStatus = i < INTERN_STATUSES.length ? INTERN_STATUSES[i]! : pick(rnd, INTERN_STATUSES);
      const name = `${INTERN_WORDS[(word0 + i) % INTERN_WORDS.length]}-${String(i).padStart(3, '0')}`;
      const created = times[i] ?? BASE_MS;
      const failed = status === 'failed' || status === 'destroy_failed';
      out.push({
        id: uuid(rnd),
        name,
        description: `Intern ${name} working on ${pick(rnd, ['weekly reports', 'data cleanup', 'support triage', 'code review'])}`,
        hostname: `${name}.${INTERN_DOMAIN}`,
        model: pick(rnd, models),
        status,
        workspaceId: ws,
        vault_id: uuid(rnd),
        attached_vault_id: rnd() < 0.5 ? null : uuid(rnd),
        instructions: rnd() < 0.4 ? null : `Be concise. Focus on ${pick(rnd, ['accuracy', 'speed', 'tone'])}.`,
        lastFailureMessage: failed
          ? pick(rnd, ['Provisioning timed out', 'Chat install revoked', 'Quota exceeded'])
          : null,
        progress:
          status === 'provisioning' || status === 'destroying'
            ? { stage: status, percent: intIn(rnd, 0, 99) }
            : status === 'queued'
              ? intIn(rnd, 1, 40)
              : null,
        createdAt: new Date(created).toISOString(),
        updatedAt: new Date(created + intIn(rnd, 0, 10 * 86_400_000)).toISOString(),
      });
    }
  };
  make(WORKSPACE_A, 620, 0);
  make(WORKSPACE_B, 80, 3);
  // 2.6 "newest first": createdAt descending; equal timestamps ordered by id descending.
  return out.sort((x, y) =>
    x.createdAt === y.createdAt ? (x.id < y.id ? 1 : x.id > y.id ? -1 : 0) : x.createdAt < y.createdAt ? 1 : -1,
  );
}

/** All interns, already newest first. */
export const INTERNS: readonly Intern[] = buildInterns();
