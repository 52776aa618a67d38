import { createHash } from 'node:crypto';
import type { Recorder, RecordedExchange } from '../core/http/recorder.ts';
import type { RunSettings } from '../core/run/run-settings.ts';
import { viewOf, type Target } from '../core/target/target.ts';
import type { Mask } from '../core/text/mask.ts';
import grounding from '../spec/grounding.json' with { type: 'json' };

/** What a recording carries so that `conformance judge` needs the file alone: the run, its options, the target without keys. */
export interface RecordedRun {
  suite: { name: string; version: string };
  documentSha256: string;
  seed: number;
  /** The run's options that decide what it sends (cli/options.ts keys), for the offline run. */
  options: {
    seed: number;
    numRuns: number;
    maxRequests: number;
    failOn: string;
    requireAll: boolean;
    maxFailures?: number;
  };
  replay: string;
  /** The report's start (report.json `run.startedAt`): which run this recording is of. */
  startedAt?: string;
  /** The checks the run selected (--grep, --shard), when not all: the offline run selects the same. */
  selected?: string[];
  /** The target file's mapping, its keys as `${VAR}` (never a key). */
  target: Record<string, unknown>;
}

/** The options a recorded run needs again to send the same requests in the same order. */
export function recordedRunOf(
  settings: RunSettings,
  target: Target,
  suite: { name: string; version: string },
): RecordedRun {
  const { hasRestrictedKey, ...view } = viewOf(target);
  return {
    suite: { name: suite.name, version: suite.version },
    documentSha256: grounding.document.sha256,
    seed: settings.seed,
    options: {
      seed: settings.seed,
      numRuns: settings.numRuns,
      maxRequests: settings.maxRequests,
      failOn: settings.failOn,
      requireAll: settings.requireAll,
      ...(settings.maxFailures !== undefined ? { maxFailures: settings.maxFailures } : {}),
    },
    replay: settings.replay,
    target: {
      ...view,
      apiKey: `\${${target.apiKeyVariable ?? 'API_KEY'}}`,
      ...(hasRestrictedKey
        ? { restrictedApiKey: `\${${target.restrictedApiKeyVariable ?? 'RESTRICTED_API_KEY'}}` }
        : {}),
    },
  };
}

/** An entry's `response.content.comment` when its body was left out (core/http/recorder.ts BodyBudget). */
export const BODY_LEFT_OUT = 'body not recorded: the recording bound was reached';
/** The recording's `log.comment` when some body was left out. */
export const BOUND_REACHED = 'the recording bound was reached: some bodies are recorded without their text';

type Pairs = Array<{ name: string; value: string }>;
const pairs = (h: Record<string, string>): Pairs => Object.entries(h).map(([name, value]) => ({ name, value }));

/**
 * Whether JSON writes `s` with an escape made of letters and digits (`\u0005`, `\n`): a control
 * character, or a lone surrogate (a pair is written as it is).
 */
const CONTROL = /[\u0000-\u001f]/;
const writtenAsLetters = (s: string): boolean => CONTROL.test(s) || !s.isWellFormed();
/** What writtenAsLetters finds, each replaced. */
const WRITTEN_AS_LETTERS = /[\u0000-\u001f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * A string of the recording, already masked, as evidence.har writes it (rule "Hostile input"): the file
 * is made of such strings and the suite's own field names, so masking each string is masking the file,
 * and the file is not read through the mask again (a 7 MB recording of escaped bodies is most of a
 * run's masking). JSON writes a string as it is but for `"` and `\`, which gain a backslash that no key
 * holds (RFC 6750 b64token) and that the mask's decoded view reads back; a control character or a lone
 * surrogate is written as an escape whose letters could complete a key in the file, so such a string is
 * also masked as written, and kept without those characters when its written form spelled a key.
 */
function asWritten(mask: Mask, masked: string): string {
  if (!writtenAsLetters(masked)) return masked;
  const written = JSON.stringify(masked);
  if (mask.text(written) === written) return masked;
  return mask.text(masked.replace(WRITTEN_AS_LETTERS, '\ufffd'));
}

/** A string the target or the target file chose, masked as evidence.har writes it. */
const fieldOf = (mask: Mask, s: string): string => asWritten(mask, mask.text(s));

/** Every string of a value (object keys too) masked as evidence.har writes it: the run's own data (target view, replay). */
function maskedDeep<T>(mask: Mask, v: T): T {
  if (typeof v === 'string') return fieldOf(mask, v) as T;
  if (Array.isArray(v)) return v.map((x) => maskedDeep(mask, x)) as T;
  if (typeof v === 'object' && v !== null)
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [fieldOf(mask, k), maskedDeep(mask, x)])) as T;
  return v;
}

/** Headers masked (names too: a target can echo the key as `x-<key>: 1`) as pairs, as written. */
const headerPairs = (mask: Mask, h: Record<string, string>): Pairs =>
  pairs(mask.headers(h)).map(({ name, value }) => ({ name: asWritten(mask, name), value: asWritten(mask, value) }));

/** Body bytes as HAR text: UTF-8 as text, anything else base64 (so the replay gives the same bytes back). */
function contentOf(body: Buffer, mask: Mask): { text: string; encoding?: 'base64' } {
  const text = body.toString('utf8');
  if (Buffer.byteLength(text) === body.length && Buffer.from(text, 'utf8').equals(body))
    return { text: fieldOf(mask, text) };
  return { text: fieldOf(mask, body.toString('base64')), encoding: 'base64' };
}

function entryOf(e: RecordedExchange, mask: Mask) {
  const url = new URL(e.url);
  const r = e.response;
  const headers = r ? headerPairs(mask, r.headers) : [];
  const header = (name: string) => headers.find((h) => h.name === name)?.value;
  return {
    startedDateTime: e.startedAt.toISOString(),
    time: e.ms,
    request: {
      method: 'GET',
      url: fieldOf(mask, e.url),
      httpVersion: 'HTTP/1.1',
      headers: headerPairs(mask, e.headers),
      queryString: [...url.searchParams].map(([name, value]) => ({
        name: fieldOf(mask, name),
        value: fieldOf(mask, value),
      })),
      cookies: [],
      headersSize: -1,
      bodySize: 0,
    },
    response: {
      status: r?.status ?? 0,
      statusText: '',
      httpVersion: 'HTTP/1.1',
      headers,
      cookies: [],
      content: {
        size: r?.size ?? 0,
        mimeType: header('content-type') ?? '',
        ...(r?.body ? contentOf(r.body, mask) : {}),
        ...(r && !r.body ? { comment: BODY_LEFT_OUT } : {}),
      },
      redirectURL: header('location') ?? '',
      headersSize: -1,
      bodySize: r?.size ?? -1,
      ...(e.error !== undefined ? { _error: fieldOf(mask, e.error) } : {}),
    },
    cache: {},
    timings: { send: 0, wait: e.ms, receive: 0 },
  };
}

export type HarEntry = ReturnType<typeof entryOf>;

/**
 * The SHA-256 of a HAR's entries as serialised (`JSON.stringify(entries)`: report.json's `run.evidence`
 * names the recording it goes with), and each entry's (its first 16 hex digits: `conformance verify`
 * names the entry that changed), from one serialisation of each entry.
 */
export function entriesDigests(entries: readonly unknown[]): { sha256: string; entryDigests: string[] } {
  const whole = createHash('sha256').update('[');
  const entryDigests = entries.map((e, i) => {
    const text = JSON.stringify(e) ?? 'null';
    whole.update(i === 0 ? text : `,${text}`);
    return createHash('sha256').update(text).digest('hex').slice(0, 16);
  });
  return { sha256: whole.update(']').digest('hex'), entryDigests };
}

/** The SHA-256 of a HAR's entries as serialised (entriesDigests). */
export const entriesDigest = (entries: readonly unknown[]): string => entriesDigests(entries).sha256;

/**
 * The run's recording as HAR 1.2, masked string by string as written (asWritten; rule "Hostile input":
 * keys masked in every output): one entry per recorded exchange, in the recorder's order, so an
 * exchange's `harEntry` is its index here.
 */
export function harOf(recorder: Recorder, run: RecordedRun, mask: Mask) {
  const entries = recorder.entries.map((e) => entryOf(e, mask));
  return {
    log: {
      version: '1.2',
      creator: { name: run.suite.name, version: run.suite.version },
      pages: [],
      entries,
      ...(recorder.boundReached ? { comment: BOUND_REACHED } : {}),
      _conformance: maskedDeep(mask, run),
    },
  };
}

export type Har = ReturnType<typeof harOf>;

/**
 * evidence.har's text: every string in it masked as written (harOf, or the shards' recordings a merge
 * joins, each masked by its own run), so it is written as it is, not masked again (reports/write-report.ts).
 */
export type EvidenceText = string & { readonly evidence: 'masked as written' };

/** evidence.har's text, the same whoever writes it (a run, a refused run, a merge): one field a line. */
export function harText(har: { log: unknown }): EvidenceText {
  return `${JSON.stringify(har, null, 1)}\n` as EvidenceText;
}
