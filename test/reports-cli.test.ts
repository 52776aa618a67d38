/**
 * The report directory of real runs (`npm run conformance` through runCli): deterministic for one
 * seed, free of keys, and a failure whose curl reproduction reproduces it; and the verdict by --fail-on.
 */
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import { inflateRawSync } from 'node:zlib';
import { expect, test } from '@playwright/test';
import { requirement } from '../core/document/catalogue.ts';
import { compileOwnSchema } from '../spec/schemas.ts';
import { FAULTS } from '../reference/faults/index.ts';
import type { ReferenceServer } from '../reference/options.ts';
import { startReference } from '../reference/server.ts';
import { referenceKeyEnv, referenceTargetYaml } from '../reference/target-file.ts';
import type { ConformanceReport } from '../reports/model.ts';
import reportSchema from '../reports/report.schema.json' with { type: 'json' };
import { MARKER } from '../reports/safe-files.ts';
import { REPORT_FILES } from '../reports/write-report.ts';
import { EXIT_CODE } from '../reports/format.ts';
import { runCli, runEngineAgainst, runScript, type CliRun } from './support/harness.ts';

const validateReport = compileOwnSchema<ConformanceReport>(reportSchema);

// Each test runs the CLI (several times): generous on a loaded machine, still bounded.
test.describe.configure({ timeout: 300_000 });

/** A MUST fault whose failing request carries the key and whose status differs from the documented one. */
const MUST_FAULT = 'models-unknown-200';
/** A fault that breaks a SHOULD requirement only. */
const SHOULD_FAULT = 'files-absolute-paths';

interface Started {
  server: ReferenceServer;
  file: string;
  env: Record<string, string>;
}

/** Every file under dir (recursively), with the entries of zip files (blob reports) unpacked. */
function readAllOutputs(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const name of readdirSync(dir, { recursive: true }) as string[]) {
    const path = join(dir, name);
    // The marker (reports/safe-files.ts) says the directory is the suite's; it is no output of the run.
    if (!statSync(path).isFile() || name === MARKER) continue;
    const bytes = readFileSync(path);
    if (name.endsWith('.zip'))
      for (const [entry, data] of unzip(bytes)) out.set(`${relative(dir, path)}!${entry}`, data.toString('utf8'));
    else out.set(relative(dir, path), bytes.toString('utf8'));
  }
  return out;
}

/** Entries of a zip file (stored or deflated), read through its central directory. */
function unzip(zip: Buffer): Array<[string, Buffer]> {
  const eocd = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (eocd < 0) throw new Error('not a zip file');
  const count = zip.readUInt16LE(eocd + 10);
  let p = zip.readUInt32LE(eocd + 16);
  const entries: Array<[string, Buffer]> = [];
  for (let i = 0; i < count; i++) {
    const method = zip.readUInt16LE(p + 10);
    const size = zip.readUInt32LE(p + 20);
    const nameLen = zip.readUInt16LE(p + 28);
    const extraLen = zip.readUInt16LE(p + 30);
    const commentLen = zip.readUInt16LE(p + 32);
    const local = zip.readUInt32LE(p + 42);
    const name = zip.subarray(p + 46, p + 46 + nameLen).toString('utf8');
    const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const raw = zip.subarray(start, start + size);
    entries.push([name, method === 8 ? inflateRawSync(raw) : Buffer.from(raw)]);
    p += 46 + nameLen + extraLen + commentLen;
  }
  return entries;
}

/**
 * The runs the tests of a MUST fault share: one reference with the fault, described by a target file,
 * run twice with seed 7 (`a` and `b`) on first use. Each test asserts on them what it claims; none
 * writes into their report directories.
 */
interface MustRuns extends Started {
  a: CliRun;
  b: CliRun;
}

let mustRuns: Promise<MustRuns> | undefined;
let mustServer: ReferenceServer | undefined;

function sharedMustRuns(): Promise<MustRuns> {
  mustRuns ??= (async () => {
    const server = await startReference({ faults: [MUST_FAULT] });
    mustServer = server;
    const file = join(mkdtempSync(join(tmpdir(), 'reports-target-')), 'target.yaml');
    writeFileSync(file, referenceTargetYaml(server));
    const env = referenceKeyEnv(server);
    // One after the other: two runs at once would share the cores, and each other's timing.
    const a = await runCli(['--target', file, '--seed', '7'], { env, timeoutMs: 180_000 });
    const b = await runCli(['--target', file, '--seed', '7'], { env, timeoutMs: 180_000 });
    return { server, file, env, a, b };
  })();
  return mustRuns;
}

/**
 * The fields that may differ between two runs with one seed, replaced by a placeholder: the start time
 * and the durations (of the run and of each exchange). Everything else must be byte-identical.
 */
const VOLATILE: Record<string, Array<[RegExp, string]>> = {
  'report.json': [
    [/"startedAt": "[^"]*"/g, '"startedAt": "<t>"'],
    [/"durationMs": \d+(\.\d+)?/g, '"durationMs": 0'],
    // evidence.har's entries carry each exchange's time, so their digests differ from run to run.
    [/"sha256": "[0-9a-f]{64}"/g, '"sha256": "<h>"'],
    [/"entryDigests": \[[^\]]*\]/g, '"entryDigests": []'],
    // Entries are recorded as answers arrive: with checks in flight together their order may vary.
    [/"harEntry": \d+/g, '"harEntry": 0'],
  ],
  'junit.xml': [
    [/ time="[\d.]+"/g, ' time="0"'],
    [/ timestamp="[^"]*"/g, ' timestamp="<t>"'],
  ],
  'summary.md': [
    [/started \S+ · run took \(engine start to report\) [^·\n]+/g, 'started <t> · took <d>'],
    [/evidence\.har entry \d+/g, 'evidence.har entry <n>'],
  ],
  'report.html': [
    [/<time data-volatile="startedAt" datetime="[^"]*">[^<]*<\/time>/g, '<time>'],
    [/(<span [^>]*data-volatile="durationMs"[^>]*>)[^<]*(<\/span>)/g, '$1<d>$2'],
    [/evidence\.har entry \d+/g, 'evidence.har entry <n>'],
  ],
  'badge.svg': [],
};

function normalise(name: string, text: string): string {
  return (VOLATILE[name] ?? []).reduce((s, [re, by]) => s.replace(re, by), text);
}

// The tests of one faulty target share its runs: in order, in one worker.
test.describe('one target with a MUST fault, run with seed 7', () => {
  test.describe.configure({ mode: 'default' });
  test.afterAll(async () => {
    await mustServer?.close();
    mustRuns = undefined;
  });

  test('two runs with one seed against one target write byte-identical reports, but for start time and durations', async () => {
    expect(Object.keys(VOLATILE).sort()).toEqual(Object.keys(REPORT_FILES).sort());
    const { a, b } = await sharedMustRuns();
    expect(a.code, a.stderr).toBe(1);
    expect(b.code, b.stderr).toBe(1);
    expect(
      readdirSync(a.reportDir)
        // evidence.har records each exchange's time: its own test is test/evidence.test.ts.
        .filter((n) => !n.startsWith('.') && n !== 'evidence.har')
        .sort(),
    ).toEqual(Object.keys(REPORT_FILES).sort());
    expect(readdirSync(b.reportDir).sort()).toEqual(readdirSync(a.reportDir).sort());
    for (const name of Object.keys(REPORT_FILES)) {
      // Each run's replay names its own report directory (`<dir>-replay`): the one input that differs.
      const [x, y] = [
        readFileSync(join(a.reportDir, name), 'utf8').replaceAll(a.reportDir, '<dir>'),
        readFileSync(join(b.reportDir, name), 'utf8').replaceAll(b.reportDir, '<dir>'),
      ];
      expect(normalise(name, y), `${name} differs between two runs with seed 7`).toBe(normalise(name, x));
    }
    // The normalisation touched only what it names: the reports do carry a time and evidence.
    expect(a.report!.run.startedAt).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(a.report!.requirements.some((r) => r.failures?.some((f) => f.exchanges.length > 0))).toBe(true);
    for (const run of [a, b])
      expect(validateReport(run.report), JSON.stringify(validateReport.errors?.slice(0, 3))).toBe(true);
  });

  test('no file the run writes holds the key or the restricted key', async () => {
    // A fault, so the report holds failures whose evidence includes the Authorization header.
    const { server, a: run } = await sharedMustRuns();
    expect(run.code, run.stderr).toBe(1);
    const outputs = readAllOutputs(run.reportDir);
    // Every file it writes, evidence.har included, is scanned for the keys.
    expect([...outputs.keys()].sort()).toEqual([...Object.keys(REPORT_FILES), 'evidence.har'].sort());
    for (const [name, text] of outputs) {
      expect(text.includes(server.keys.management), `${name} holds the key`).toBe(false);
      expect(text.includes(server.keys.restricted), `${name} holds the restricted key`).toBe(false);
    }
    expect(run.stdout + run.stderr).not.toContain(server.keys.management);
    // The key is named by the target file's variable, as the user set it.
    expect(outputs.get('report.json')).toContain('Bearer $CONFORMANCE_REFERENCE_API_KEY');
  });

  test("a fault's failure names its requirement, and its curl command reproduces the failing response status", async () => {
    const fault = FAULTS.find((f) => f.name === MUST_FAULT);
    expect(fault, `reference fault ${MUST_FAULT}`).toBeDefined();
    const { server, a: run } = await sharedMustRuns();
    expect(run.code, run.stderr).toBe(1);
    const failed = run.report!.requirements.filter((r) => r.status === 'fail');
    expect(failed.map((r) => r.id)).toEqual(expect.arrayContaining([...fault!.breaks]));
    const broken = failed.find((r) => fault!.breaks.includes(r.id))!;
    const failure = broken.failures![0]!;
    const last = failure.exchanges[failure.exchanges.length - 1]!;
    expect(failure.curl).toMatch(/^curl /);
    expect(failure.curl).toContain('$CONFORMANCE_REFERENCE_API_KEY');
    expect(failure.curl).not.toContain(server.keys.management);

    // Run it as a reader would: the target file's variable set as for the run, the command pasted into a shell.
    const { stdout } = await promisify(execFile)('bash', ['-c', failure.curl!], {
      env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', CONFORMANCE_REFERENCE_API_KEY: server.keys.management },
      timeout: 20_000,
    });
    const statusLine = stdout.split('\r\n')[0] ?? '';
    expect(statusLine).toMatch(/^HTTP\/1\.1 \d{3}/);
    expect(Number(statusLine.split(' ')[1])).toBe(last.response!.status);

    // The same failure in every format: requirement id, reason and reproduction.
    const junit = readFileSync(join(run.reportDir, 'junit.xml'), 'utf8');
    expect(junit).toContain(`] ${broken.id}: `);
    expect(junit).toContain('reproduce: curl ');
    expect(readFileSync(join(run.reportDir, 'summary.md'), 'utf8')).toContain(`- \`${broken.id}\` (${broken.level}`);
    const html = readFileSync(join(run.reportDir, 'report.html'), 'utf8');
    expect(html).toContain(`id="req-${broken.id}" data-status="fail"`);
    expect(html).toContain('<pre class="curl">curl -sS -i');
  });

  /** `npm run conformance:merge` as a CI merge job runs it: without the keys in its environment. */
  function runMerge(args: string[]): ReturnType<typeof runScript> {
    return runScript('cli/merge.ts', args);
  }

  /**
   * What a sharded run must share with an unsharded one: each requirement's status, the checks behind it
   * and where it failed. (Observed values may differ: an observation can depend on what ran before it.)
   */
  function comparable(report: ConformanceReport): unknown {
    return report.requirements.map((r) => ({
      id: r.id,
      status: r.status,
      checks: r.checks,
      failures: r.failures?.map((f) => ({
        checkId: f.checkId,
        message: f.message,
        curl: f.curl,
        statuses: f.exchanges.map((x) => x.response?.status),
      })),
    }));
  }

  test('two shards merged with conformance:merge give the same requirements as one unsharded run with the same seed', async () => {
    // The unsharded run is the shared one with seed 7 (`a`).
    const { server, file, env, a: whole } = await sharedMustRuns();
    // One after the other, as separate CI jobs would (and so a loaded machine does not time them out).
    const shard1 = await runCli(['--target', file, '--seed', '7', '--shard', '1/2'], { env, timeoutMs: 180_000 });
    const shard2 = await runCli(['--target', file, '--seed', '7', '--shard', '2/2'], { env, timeoutMs: 180_000 });
    expect(whole.code, whole.stderr).toBe(1);
    // Each shard writes its own partial report (its exit code) and the blob the merge joins.
    for (const [i, shard] of [shard1, shard2].entries()) {
      expect(shard.report, shard.stderr).toBeDefined();
      expect(shard.report!.run.shard).toBe(`${i + 1}/2`);
      expect(shard.code).toBe(shard.report!.verdict === 'non-conformant' ? 1 : 0);
      expect(
        readdirSync(join(shard.reportDir, 'blob'))
          .filter((n) => !n.startsWith('.'))
          .sort(),
      ).toEqual([
        `conformance-shard-${i + 1}-of-2.json`,
        `evidence-shard-${i + 1}-of-2.har`,
        `report-${i + 1}-of-2.zip`,
      ]);
    }
    expect(shard1.report!.counts.MUST.disabled + shard2.report!.counts.MUST.disabled).toBeGreaterThan(0);

    // CI: every shard's blob/ downloaded into one directory, then merged by a job without the keys.
    const merged = mkdtempSync(join(tmpdir(), 'reports-merged-'));
    mkdirSync(join(merged, 'blob'));
    for (const shard of [shard1, shard2])
      cpSync(join(shard.reportDir, 'blob'), join(merged, 'blob'), { recursive: true });
    const collected = readdirSync(join(merged, 'blob')).sort();
    const merge = await runMerge(['--report-dir', merged]);
    expect(merge.code, merge.stderr + merge.stdout).toBe(1);
    expect(readdirSync(join(merged, 'blob')).sort()).toEqual(collected);
    const report = JSON.parse(readFileSync(join(merged, 'report.json'), 'utf8')) as ConformanceReport;
    expect(validateReport(report), JSON.stringify(validateReport.errors?.slice(0, 3))).toBe(true);
    expect(report.run.mergedShards).toBe(2);
    expect(report.run.shard).toBeUndefined();
    expect(report.run.seed).toBe(7);
    // The merged report replays the whole run: no shard's --shard, its own directory's replay.
    expect(report.run.replay).not.toContain('--shard');
    expect(report.run.replay).toContain(`--report-dir ${merged}-replay`);
    expect(report.verdict).toBe(whole.report!.verdict);
    const differing = report.requirements
      .filter((r, i) => r.status !== whole.report!.requirements[i]?.status)
      .map(
        (r) =>
          `${r.id}: merged ${r.status} (${r.reason}), unsharded ${whole.report!.requirements.find((w) => w.id === r.id)?.status}`,
      );
    expect(differing, 'requirement statuses of the merged and the unsharded run').toEqual([]);
    expect(report.counts).toEqual(whole.report!.counts);
    expect(comparable(report)).toEqual(comparable(whole.report!));
    // Every request of every shard is counted (each shard also sent its own preflight requests).
    expect(report.run.requests).toBe(shard1.report!.run.requests + shard2.report!.run.requests);
    for (const name of Object.keys(REPORT_FILES)) expect(readdirSync(merged)).toContain(name);
    // Counts aside (requests, the recording's entries), the merged report and the unsharded run agree,
    // and the merged recording, the shards' joined, gives the merged report again.
    const same = await runScript('cli/diff.ts', [join(whole.reportDir, 'report.json'), join(merged, 'report.json')]);
    expect(same.code, same.stdout + same.stderr).toBe(0);
    const verify = await runScript('cli/verify.ts', [join(merged, 'report.json'), join(merged, 'evidence.har')]);
    expect(verify.code, verify.stdout + verify.stderr).toBe(0);

    // No key anywhere: shard reports, their blobs (unzipped), the merged report.
    for (const dir of [shard1.reportDir, shard2.reportDir, merged]) {
      for (const [name, text] of readAllOutputs(dir)) {
        expect(text.includes(server.keys.management), `${name} holds the key`).toBe(false);
        expect(text.includes(server.keys.restricted), `${name} holds the restricted key`).toBe(false);
      }
    }

    // A missing shard is one line and exit 2, not a report that silently lacks half the checks.
    const partial = mkdtempSync(join(tmpdir(), 'reports-partial-'));
    cpSync(join(shard1.reportDir, 'blob'), join(partial, 'blob'), { recursive: true });
    const incomplete = await runMerge(['--report-dir', partial]);
    expect(incomplete.code).toBe(2);
    expect(incomplete.stderr).toMatch(/^conformance merge: cannot merge: shard 2\/2 missing/);
  });
});

test('a SHOULD-only failure is CONFORMANT by default (exit 0) and NON-CONFORMANT with --fail-on should (exit 1), badge included', async () => {
  const fault = FAULTS.find((f) => f.name === SHOULD_FAULT);
  expect(fault, `reference fault ${SHOULD_FAULT}`).toBeDefined();
  expect(fault!.breaks.every((id) => requirement(id).level === 'SHOULD')).toBe(true);
  // The verdict is the engine's (in-process: what --fail-on changes is the verdict, not the run); the
  // command exits by it (EXIT_CODE), as test/gate.test.ts holds end to end for every verdict.
  const [byDefault, strict] = await Promise.all(
    (['must', 'should'] as const).map((failOn) =>
      runEngineAgainst({ faults: [SHOULD_FAULT] }, { settings: { seed: 7, failOn } }),
    ),
  );
  for (const report of [byDefault!, strict!]) {
    expect(report.counts.MUST.fail).toBe(0);
    expect(report.counts.SHOULD.fail).toBeGreaterThan(0);
    expect(report.requirements.filter((r) => r.status === 'fail').map((r) => r.id)).toEqual(
      expect.arrayContaining([...fault!.breaks]),
    );
  }
  expect(byDefault!.verdict).toBe('conformant');
  expect(EXIT_CODE[byDefault!.verdict]).toBe(0);
  expect(strict!.verdict).toBe('non-conformant');
  expect(EXIT_CODE[strict!.verdict]).toBe(1);
  expect(REPORT_FILES['badge.svg']!(byDefault!)).toContain('>conformant<');
  expect(REPORT_FILES['badge.svg']!(strict!)).toContain('>non-conformant<');
});
