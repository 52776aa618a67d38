/**
 * What a shard run (`--shard I/N`) leaves next to its Playwright blob report, so that the shards,
 * run on different machines, merge into one conformance report (cli/merge.ts): the shard's request
 * log (the report counts every request of the run) and the settings the merge must agree on.
 *
 *   <report-dir>/blob/report-I.zip                  Playwright's blob (outcomes are test attachments)
 *   <report-dir>/blob/conformance-shard-I-of-N.json  ShardState
 *   <report-dir>/blob/requests-I-of-N.jsonl          the shard's request log (no header, so no key)
 */
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RunSettings } from '../core/run-settings.ts';

export interface ShardState {
  /** `I/N` */
  shard: string;
  current: number;
  total: number;
  baseUrl: string;
  seed: number;
  numRuns: number;
  maxRequests: number;
  failOn: RunSettings['failOn'];
  transport: RunSettings['transport'];
  replay: string;
  suiteVersion: string;
  suiteCommit: string;
  /** The shard's blob file was present when the shard ended. */
  blob: boolean;
}

export const BLOB_SUBDIR = 'blob';

function names(current: number, total: number): { state: string; log: string } {
  return { state: `conformance-shard-${current}-of-${total}.json`, log: `requests-${current}-of-${total}.jsonl` };
}

/** Called by the CLI after a shard's Playwright run: keeps the request log and the settings with the blob. */
export function saveShardState(settings: RunSettings, shard: string, extra: { baseUrl: string; replay: string; suiteVersion: string; suiteCommit: string }): string {
  const [current, total] = shard.split('/').map(Number) as [number, number];
  const dir = join(settings.reportDir, BLOB_SUBDIR);
  mkdirSync(dir, { recursive: true });
  const n = names(current, total);
  const log = join(settings.runDir, 'requests.jsonl');
  if (existsSync(log)) copyFileSync(log, join(dir, n.log));
  else writeFileSync(join(dir, n.log), '');
  const state: ShardState = {
    shard,
    current,
    total,
    baseUrl: extra.baseUrl,
    seed: settings.seed,
    numRuns: settings.numRuns,
    maxRequests: settings.maxRequests,
    failOn: settings.failOn,
    transport: settings.transport,
    replay: extra.replay,
    suiteVersion: extra.suiteVersion,
    suiteCommit: extra.suiteCommit,
    blob: readdirSync(dir).some((f) => f.endsWith('.zip')),
  };
  writeFileSync(join(dir, n.state), JSON.stringify(state, null, 2) + '\n');
  return dir;
}

export interface CollectedShards {
  states: ShardState[];
  zips: string[];
  /** Why the shards cannot be merged (missing shard, different seeds, ...); empty when they can. */
  problems: string[];
}

/** Reads the shard states found in a directory of collected blob reports and checks they form one run. */
export function collectShards(blobDir: string): CollectedShards {
  if (!existsSync(blobDir)) return { states: [], zips: [], problems: [`${blobDir} does not exist`] };
  const files = readdirSync(blobDir).sort();
  const zips = files.filter((f) => f.endsWith('.zip'));
  const states = files
    .filter((f) => /^conformance-shard-\d+-of-\d+\.json$/.test(f))
    .map((f) => JSON.parse(readFileSync(join(blobDir, f), 'utf8')) as ShardState)
    .sort((a, b) => a.current - b.current);
  const problems: string[] = [];
  if (zips.length === 0) problems.push(`no blob report (*.zip) in ${blobDir}`);
  if (states.length === 0) problems.push(`no shard state (conformance-shard-I-of-N.json) in ${blobDir}: were the shards run with npm run conformance -- --shard I/N?`);
  const first = states[0];
  if (first) {
    const missing = Array.from({ length: first.total }, (_, i) => i + 1).filter((i) => !states.some((s) => s.current === i));
    if (missing.length) problems.push(`shard${missing.length > 1 ? 's' : ''} ${missing.map((i) => `${i}/${first.total}`).join(', ')} missing from ${blobDir}`);
    for (const s of states) {
      if (s.total !== first.total) problems.push(`shard ${s.shard} is not one of ${first.total}`);
      if (s.seed !== first.seed) problems.push(`shard ${s.shard} ran with seed ${s.seed}, shard ${first.shard} with ${first.seed}: rerun the shards with one --seed`);
      if (s.baseUrl !== first.baseUrl) problems.push(`shard ${s.shard} ran against ${s.baseUrl}, shard ${first.shard} against ${first.baseUrl}`);
      if (!s.blob) problems.push(`shard ${s.shard} ended without its blob report`);
    }
    if (zips.length && zips.length !== first.total) problems.push(`${zips.length} blob reports for ${first.total} shards in ${blobDir}`);
  }
  return { states, zips, problems: [...new Set(problems)] };
}

/** The shards' request logs, concatenated in shard order into runDir/requests.jsonl (what the report counts). */
export function mergeRequestLogs(blobDir: string, states: readonly ShardState[], runDir: string): void {
  const parts = states.map((s) => {
    const file = join(blobDir, names(s.current, s.total).log);
    return existsSync(file) ? readFileSync(file, 'utf8') : '';
  });
  writeFileSync(join(runDir, 'requests.jsonl'), parts.join(''));
}
