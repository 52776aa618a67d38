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

/** Body bytes as HAR text: UTF-8 as text, anything else base64 (so the replay gives the same bytes back). */
function contentOf(body: Buffer, mask: Mask): { text: string; encoding?: 'base64' } {
  const text = body.toString('utf8');
  if (Buffer.byteLength(text) === body.length && Buffer.from(text, 'utf8').equals(body))
    return { text: mask.text(text) };
  return { text: mask.text(body.toString('base64')), encoding: 'base64' };
}

function entryOf(e: RecordedExchange, mask: Mask) {
  const url = new URL(e.url);
  const r = e.response;
  const headers = r ? mask.headers(r.headers) : {};
  return {
    startedDateTime: e.startedAt.toISOString(),
    time: e.ms,
    request: {
      method: 'GET',
      url: mask.text(e.url),
      httpVersion: 'HTTP/1.1',
      headers: pairs(mask.headers(e.headers)),
      queryString: [...url.searchParams].map(([name, value]) => ({ name: mask.text(name), value: mask.text(value) })),
      cookies: [],
      headersSize: -1,
      bodySize: 0,
    },
    response: {
      status: r?.status ?? 0,
      statusText: '',
      httpVersion: 'HTTP/1.1',
      headers: pairs(headers),
      cookies: [],
      content: {
        size: r?.size ?? 0,
        mimeType: headers['content-type'] ?? '',
        ...(r?.body ? contentOf(r.body, mask) : {}),
        ...(r && !r.body ? { comment: BODY_LEFT_OUT } : {}),
      },
      redirectURL: headers['location'] ?? '',
      headersSize: -1,
      bodySize: r?.size ?? -1,
      ...(e.error !== undefined ? { _error: mask.text(e.error) } : {}),
    },
    cache: {},
    timings: { send: 0, wait: e.ms, receive: 0 },
  };
}

export type HarEntry = ReturnType<typeof entryOf>;

/** The SHA-256 of a HAR's entries as serialised: report.json's `run.evidence` names the recording it goes with. */
export function entriesDigest(entries: readonly unknown[]): string {
  return createHash('sha256').update(JSON.stringify(entries)).digest('hex');
}

/** Each entry's SHA-256 (its first 16 hex digits): `conformance verify` names the entry that changed. */
export function entryDigests(entries: readonly unknown[]): string[] {
  return entries.map((e) => createHash('sha256').update(JSON.stringify(e)).digest('hex').slice(0, 16));
}

/**
 * The run's recording as HAR 1.2, masked (rule "Hostile input": keys masked in every output): one
 * entry per recorded exchange, in the recorder's order, so an exchange's `harEntry` is its index here.
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
      _conformance: run,
    },
  };
}

export type Har = ReturnType<typeof harOf>;

/** evidence.har's text, the same whoever writes it (a run, a refused run, a merge): one field a line. */
export function harText(har: { log: unknown }): string {
  return `${JSON.stringify(har, null, 1)}\n`;
}
