/**
 * `conformance merge` joins the shards' recordings into its evidence.har, and the merged report compares
 * equal to the unsharded run of the same seed (`conformance diff`, exit 0) and agrees with its recording
 * (`conformance verify`, exit 0). The runs are in-process (runConformance): a shard is a run of half the
 * checks (--grep), its report and recording put in blob/ as a --shard run leaves them
 * (reports/shards.ts writeShardReport); merge, diff and verify are the real commands. The shards of the
 * real command line are merged and compared in test/reports-cli.test.ts.
 */
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { runConformance } from '../cli/api.ts';
import type { Exchange } from '../core/check/evidence.ts';
import { Mask } from '../core/text/mask.ts';
import { startReference } from '../reference/server.ts';
import { referenceKeyEnv, referenceTargetYaml } from '../reference/target-file.ts';
import { BODY_LEFT_OUT, BOUND_REACHED, type RecordedRun } from '../reports/har.ts';
import { MergedRecording, type ShardRecording } from '../reports/merged-evidence.ts';
import type { ConformanceReport } from '../reports/model.ts';
import reportSchema from '../reports/report.schema.json' with { type: 'json' };
import { writeShardReport } from '../reports/shards.ts';
import { compileOwnSchema } from '../spec/schemas.ts';
import harSchema from './fixtures/har-1.2.schema.json' with { type: 'json' };
import { runScript } from './support/harness.ts';
import { findKeys } from './support/key-scan.ts';

// Four runs, then merge, diff and verify in processes of their own: generous on a loaded machine, still bounded.
test.describe.configure({ mode: 'serial', timeout: 300_000 });

const validHar = compileOwnSchema(harSchema);
const validReport = compileOwnSchema<ConformanceReport>(reportSchema);

/** A MUST fault (4.3: has_more a boolean): its findings point at entries of the recording. */
const FAULT = 'interns-has-more-string';
const SEED = 4321;

interface Har {
  log: { entries: Array<{ request: { url: string }; response: { status: number } }>; comment?: string } & {
    _conformance: RecordedRun;
  };
}

const dir = mkdtempSync(join(tmpdir(), 'merge-evidence-'));
let whole: ConformanceReport;
let plain: ConformanceReport;
const shards: Array<{ report: ConformanceReport; har: Har }> = [];
/** The reference's keys: in no output. */
const keys: string[] = [];

const readJson = <T>(file: string): T => JSON.parse(readFileSync(file, 'utf8')) as T;
const exchangesOf = (r: ConformanceReport): Exchange[] =>
  r.checks.flatMap((c) => c.failures.flatMap((f) => f.exchanges));

/** The checks of shard I of 2, by the first word of their ids (a --grep is at most 1000 characters). */
const HALVES = { 1: '^(?:files|auth)\\.', 2: '^(?:models|interns|general)\\.' } as const;

test.beforeAll(async () => {
  test.setTimeout(240_000);
  const server = await startReference({ faults: [FAULT] });
  const target = join(dir, 'target.yaml');
  writeFileSync(target, referenceTargetYaml(server));
  const env = referenceKeyEnv(server);
  try {
    whole = await runConformance({ target, env, seed: SEED, reportDir: join(dir, 'whole') });
    mkdirSync(join(dir, 'merged', 'blob'), { recursive: true });
    for (const i of [1, 2] as const) {
      const reportDir = join(dir, `shard-${i}`);
      const report = await runConformance({ target, env, seed: SEED, reportDir, grep: HALVES[i] });
      // As a --shard run leaves it: its report (named a shard) and recording in blob/, masked when written.
      writeShardReport({ ...report, run: { ...report.run, shard: `${i}/2` } }, reportDir, `${i}/2`, new Mask([]));
      cpSync(join(reportDir, 'blob'), join(dir, 'merged', 'blob'), { recursive: true });
      shards.push({ report, har: readJson<Har>(join(reportDir, 'blob', `evidence-shard-${i}-of-2.har`)) });
    }
    keys.push(...Object.values(env));
  } finally {
    await server.close();
  }
  const other = await startReference({});
  const file = join(dir, 'plain-target.yaml');
  writeFileSync(file, referenceTargetYaml(other));
  try {
    plain = await runConformance({ target: file, env: referenceKeyEnv(other), seed: SEED });
  } finally {
    await other.close();
  }
  writeFileSync(join(dir, 'plain.json'), JSON.stringify(plain));
});

test('the merged shards: their recordings joined into evidence.har, every pointer at its entry, diff equal to the unsharded run, verify agrees', async () => {
  const merged = join(dir, 'merged');
  const merge = await runScript('cli/merge.ts', ['--report-dir', merged]);
  expect(merge.stderr).toBe('');
  expect(merge.code).toBe(1);
  expect(merge.stdout).toContain(`evidence: ${join(merged, 'evidence.har')}`);
  // Written under temporary names then renamed: nothing else is left in the directory.
  expect(readdirSync(merged).sort()).toEqual(
    [
      '.conformance-report',
      'badge.svg',
      'blob',
      'evidence.har',
      'junit.xml',
      'report.html',
      'report.json',
      'summary.md',
    ].sort(),
  );
  const report = readJson<ConformanceReport>(join(merged, 'report.json'));
  expect(validReport(report), JSON.stringify(validReport.errors?.slice(0, 3))).toBe(true);
  const harText = readFileSync(join(merged, 'evidence.har'), 'utf8');
  const har = JSON.parse(harText) as Har;
  expect(validHar(har), JSON.stringify(validHar.errors?.slice(0, 3))).toBe(true);
  // No key: the entries are the shards' (masked when each shard wrote them, test/evidence.test.ts), and
  // what the merge wrote beside them is searched in every encoding (the whole file plainly: a full search
  // of megabytes takes minutes).
  for (const key of keys) expect(harText.includes(key)).toBe(false);
  expect(findKeys(JSON.stringify({ ...har.log, entries: [] }), keys)).toEqual([]);

  // Every entry of every shard, shard after shard; the run is the merged one (its start, all checks).
  const [one, two] = shards as [(typeof shards)[0], (typeof shards)[0]];
  expect(har.log.entries).toEqual([...one.har.log.entries, ...two.har.log.entries]);
  expect(report.run.evidence?.entries).toBe(har.log.entries.length);
  expect(har.log._conformance.startedAt).toBe(report.run.startedAt);
  expect(har.log._conformance.replay).toBe(report.run.replay);
  expect(har.log._conformance.selected).toBeUndefined();

  // Each finding of a shard points, in the merged recording, at the very entry it pointed at in its own.
  const offsets = [0, one.har.log.entries.length];
  let pointers = 0;
  for (const [i, shard] of shards.entries()) {
    for (const c of shard.report.checks) {
      const inMerged = report.checks.find((m) => m.checkId === c.checkId)!;
      for (const [fi, f] of c.failures.entries()) {
        for (const [xi, x] of f.exchanges.entries()) {
          const moved = inMerged.failures[fi]!.exchanges[xi]!;
          expect(x.harEntry, `${c.checkId}: a finding of the shard points at its entry`).toBeDefined();
          expect(moved.harEntry).toBe(x.harEntry! + offsets[i]!);
          expect(har.log.entries[moved.harEntry!]).toEqual(shard.har.log.entries[x.harEntry!]);
          expect(har.log.entries[moved.harEntry!]!.request.url).toBe(moved.request.url);
          pointers++;
        }
      }
    }
  }
  expect(pointers).toBeGreaterThan(0);
  expect(exchangesOf(report).length).toBe(pointers);

  // Compared with the unsharded run of the same seed: equal, counts of requests and entries aside.
  expect(report.run.requests).not.toBe(whole.run.requests);
  writeFileSync(join(dir, 'whole.json'), JSON.stringify(whole));
  const same = await runScript('cli/diff.ts', [join(dir, 'whole.json'), join(merged, 'report.json')]);
  expect(same.stderr).toBe('');
  expect(same.stdout).toContain('The two reports agree');
  expect(same.code).toBe(0);
  // A real difference of status is still one: the plain reference passes what the fault fails.
  const differs = await runScript('cli/diff.ts', [join(dir, 'plain.json'), join(merged, 'report.json')]);
  expect(differs.code).toBe(1);
  expect(differs.stdout).toMatch(/^ {2}interns\.list\.schema .*\bpass\s+fail$/m);

  // The merged report and its untouched recording agree, judged again offline as one whole run.
  const verify = await runScript('cli/verify.ts', [join(merged, 'report.json'), join(merged, 'evidence.har')]);
  expect(verify.stderr).toBe('');
  expect(verify.stdout).toBe('the report and the recording agree\n');
  expect(verify.code).toBe(0);
});

test("a shard's recording missing or not the one its report names: one line, exit 2", async () => {
  const cases: Array<{ name: string; edit: (blob: string) => void; says: RegExp }> = [
    {
      name: 'empty',
      edit: (blob) => writeFileSync(join(blob, 'evidence-shard-2-of-2.har'), ''),
      says: /^conformance merge: cannot merge: evidence-shard-2-of-2\.har is not JSON\n$/,
    },
    {
      name: 'changed',
      edit: (blob) => {
        const file = join(blob, 'evidence-shard-1-of-2.har');
        const har = readJson<Har>(file);
        har.log.entries[0]!.response.status = 299;
        writeFileSync(file, JSON.stringify(har));
      },
      says: /^conformance merge: cannot merge: evidence-shard-1-of-2\.har does not hold the entries shard 1\/2's report names\n$/,
    },
  ];
  for (const c of cases) {
    const blob = join(dir, `bad-${c.name}`, 'blob');
    mkdirSync(blob, { recursive: true });
    cpSync(join(dir, 'merged', 'blob'), blob, { recursive: true });
    c.edit(blob);
    const out = await runScript('cli/merge.ts', ['--report-dir', join(dir, `bad-${c.name}`)]);
    expect(out.code, c.name).toBe(2);
    expect(out.stderr, c.name).toMatch(c.says);
  }
  const gone = join(dir, 'bad-gone', 'blob');
  mkdirSync(gone, { recursive: true });
  for (const name of readdirSync(join(dir, 'merged', 'blob')).filter((n) => n !== 'evidence-shard-2-of-2.har'))
    cpSync(join(dir, 'merged', 'blob', name), join(gone, name), { recursive: true });
  const out = await runScript('cli/merge.ts', ['--report-dir', join(dir, 'bad-gone')]);
  expect(out.code).toBe(2);
  expect(out.stderr).toMatch(
    /^conformance merge: cannot merge: shard 2\/2 names a recording, but evidence-shard-2-of-2\.har .*\n$/,
  );
});

/** A recording of entries with the given bodies, as the merge reads one. */
function recording(bodies: Array<{ text: string; encoding?: 'base64' }>, comment?: string): ShardRecording {
  return {
    log: {
      version: '1.2',
      creator: { name: 'conformance-suite', version: '0' },
      entries: bodies.map((b, i) => ({
        request: { url: `http://127.0.0.1/v1/${i}` },
        response: { status: 200, content: { size: 0, mimeType: 'application/json', ...b } },
      })),
      ...(comment ? { comment } : {}),
      _conformance: {} as RecordedRun,
    },
  };
}

test("the merged recording keeps one run's bodies: past a body's or the run's bound an entry stays without its text", () => {
  const joined = new MergedRecording({ runBytes: 10, bodyBytes: 6 });
  // Six bytes each: the first kept, the second past the run's ten, the base64 one counted decoded (3 bytes).
  expect(joined.add(recording([{ text: 'abcdef' }, { text: 'ghijkl' }]), 'one')).toBe(0);
  expect(joined.add(recording([{ text: 'YWJj', encoding: 'base64' }, { text: 'toolong' }]), 'two')).toBe(2);
  const har = joined.har({ name: 'c' }, {} as RecordedRun);
  const contents = har.log.entries.map(
    (e) => (e as { response: { content: Record<string, unknown> } }).response.content,
  );
  expect(contents.map((c) => c['text'])).toEqual(['abcdef', undefined, 'YWJj', undefined]);
  expect(contents.map((c) => c['comment'])).toEqual([undefined, BODY_LEFT_OUT, undefined, BODY_LEFT_OUT]);
  expect(har.log.comment).toBe(BOUND_REACHED);

  // Within the bounds nothing is left out and nothing said; a shard that left bodies out is said.
  const small = new MergedRecording();
  small.add(recording([{ text: 'abc' }]), 'one');
  expect(small.har({}, {} as RecordedRun).log.comment).toBeUndefined();
  small.add(recording([], BOUND_REACHED), 'two');
  expect(small.har({}, {} as RecordedRun).log.comment).toBe(BOUND_REACHED);
  expect(() => new MergedRecording().add({ log: { ...recording([]).log, entries: [42] } }, 'x')).toThrow(
    'x entry 0 is not a HAR entry',
  );
});
