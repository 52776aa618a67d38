import { terminalSafe } from '../core/text/terminal-text.ts';
import { CannotJudge } from '../core/check/errors.ts';
import { TransportError, type RawResponse, type Transport } from '../core/http/transport.ts';
import { targetOfMapping, type Target } from '../core/target/target.ts';
import { Mask, secretsOf } from '../core/text/mask.ts';
import { readRegularFile } from '../os/regular-file.ts';
import type { Har } from '../reports/har.ts';
import type { ConformanceReport } from '../reports/model.ts';
import { runConformance } from './api.ts';

/** A recording is read whole: its bodies' bound (core/http/recorder.ts) and their JSON escaping, with room. */
const MAX_RECORDING_BYTES = 256 * 1024 * 1024;

/** A recording that cannot be judged (missing, not JSON, not the suite's HAR): one line, exit 2. */
export class RecordingError extends Error {
  override readonly name = 'RecordingError';
}

type HarEntry = Har['log']['entries'][number] & { response: { content: { encoding?: string; text?: string } } };
export type Recording = Har & { log: { entries: HarEntry[] } };

/** The file parsed and its shape checked as far as the offline run reads it. */
export function loadRecording(file: string): Recording {
  let text: string;
  try {
    text = readRegularFile(file, MAX_RECORDING_BYTES).toString('utf8');
  } catch (e) {
    throw new RecordingError(`${file}: ${(e as Error).message}`);
  }
  let har: unknown;
  try {
    har = JSON.parse(text);
  } catch {
    throw new RecordingError(`${file}: not JSON`);
  }
  const log = (har as { log?: Record<string, unknown> } | null)?.log;
  if (log?.['version'] !== '1.2' || !Array.isArray(log['entries']))
    throw new RecordingError(`${file}: not a HAR 1.2 file`);
  const run = log['_conformance'] as Record<string, unknown> | undefined;
  if (typeof run?.['target'] !== 'object' || run['target'] === null || typeof run['options'] !== 'object')
    throw new RecordingError(`${file}: not a recording of the conformance suite (no log._conformance)`);
  return har as Recording;
}

/** Stand-ins for the keys: the recording holds their placeholders only, which the offline run's mask gives back. */
function offlineKeyEnv(mapping: Record<string, unknown>): Record<string, string> {
  const env: Record<string, string> = {};
  let n = 0;
  for (const field of ['apiKey', 'restrictedApiKey']) {
    const m = /^\$\{([A-Za-z_][A-Za-z0-9_]*)\}$/.exec(String(mapping[field] ?? ''));
    if (m) env[m[1]!] = `offline-recording-key-${++n}-0f3a9c2e7b`;
  }
  return env;
}

/** The recorded run's target, its keys stand-ins whose placeholders are the recording's. */
export function targetOfRecording(rec: Recording): Target {
  const mapping = rec.log._conformance.target;
  const hosts = [mapping['baseUrl'], (mapping['interns'] as { regionalBaseUrl?: unknown } | undefined)?.regionalBaseUrl]
    .filter((u): u is string => typeof u === 'string')
    .map((u) => new URL(u).host);
  return targetOfMapping(mapping, 'the recording', {
    env: offlineKeyEnv(mapping),
    allowInsecure: true,
    allowHosts: hosts,
  });
}

/**
 * Answers each request from the recording by method, URL and Authorization as masked (the placeholder
 * says which key; a literal unknown key is no secret and stays), the n-th same request by the n-th
 * recorded answer. A request the recording does not hold is not judged ("not in the recording"),
 * never a failure (rule "Verdicts in both directions").
 */
export class RecordingTransport implements Transport {
  private readonly answers = new Map<string, HarEntry[]>();
  private readonly asked = new Map<string, number>();
  private mask: Mask;

  constructor(rec: Recording, target: Target) {
    this.mask = new Mask(secretsOf(target));
    for (const e of rec.log.entries) {
      const auth = e.request.headers.find((h) => h.name.toLowerCase() === 'authorization')?.value;
      const key = this.keyOf(e.request.url, auth, false);
      const list = this.answers.get(key) ?? [];
      list.push(e);
      this.answers.set(key, list);
    }
  }

  private keyOf(url: string, authorization: string | undefined, live: boolean): string {
    const m = (s: string) => (live ? this.mask.text(s) : s);
    return `GET ${m(url)}\u0000${authorization === undefined ? '(none)' : m(authorization)}`;
  }

  async get(url: URL, headers: Record<string, string>): Promise<RawResponse> {
    const auth = Object.entries(headers).find(([k]) => k.toLowerCase() === 'authorization')?.[1];
    const key = this.keyOf(url.toString(), auth, true);
    const n = this.asked.get(key) ?? 0;
    this.asked.set(key, n + 1);
    const e = this.answers.get(key)?.[n];
    if (!e || e.response.status === 0 || e.response.content.text === undefined) {
      if (e && e.response.status === 0)
        throw new TransportError((e.response as { _error?: string })._error ?? 'no answer');
      throw new CannotJudge('not-recorded', `GET ${this.mask.text(url.pathname)}: not in the recording`);
    }
    const { text, encoding } = e.response.content;
    return {
      status: e.response.status,
      headers: Object.fromEntries(e.response.headers.map((h) => [h.name.toLowerCase(), h.value])),
      body: Buffer.from(text, encoding === 'base64' ? 'base64' : 'utf8'),
    };
  }

  /** The offline run's own mask, which learns the forms its checks derive from the stand-in keys. */
  useMask(mask: Mask): void {
    this.mask = mask;
  }

  async close(): Promise<void> {}
}

/** The recorded run judged again, offline: the same checks, options and seed, the recording as the target. */
export function judgeRecording(rec: Recording, reportDir?: string): Promise<ConformanceReport> {
  const target = targetOfRecording(rec);
  const o = rec.log._conformance.options;
  const transport = new RecordingTransport(rec, target);
  return runConformance(
    {
      seed: o.seed,
      numRuns: o.numRuns,
      maxRequests: o.maxRequests,
      failOn: o.failOn as 'must' | 'should',
      ...(o.requireAll ? { requireAll: true } : {}),
      ...(o.maxFailures !== undefined ? { maxFailures: o.maxFailures } : {}),
      ...(reportDir !== undefined ? { reportDir, force: true } : {}),
    },
    {
      target,
      transport,
      useMask: (m) => transport.useMask(m),
      // The run's own selection, by check id.
      ...(rec.log._conformance.selected ? { selected: rec.log._conformance.selected } : {}),
    },
  );
}

/**
 * Runs `judge` or `verify` to its exit code: a bad recording or a run that cannot be made is one line
 * on stderr and exit 2 (rule "Bad input exits 2"), anything else an internal error said the same way.
 */
export async function runRecordingCommand(name: string, main: () => Promise<number>): Promise<number> {
  try {
    return await main();
  } catch (e) {
    const message =
      e instanceof RecordingError || (e instanceof Error && e.name === 'ConformanceRunError')
        ? e.message
        : `internal error: ${(e as Error)?.message ?? String(e)}`;
    process.stderr.write(`conformance ${name}: ${terminalSafe(message)}\n`);
    return 2;
  }
}
