/**
 * Report directories never lead outside (reports/safe-files.ts, os/links.ts): a link in any component
 * of --report-dir that leads outside the directory the run was started from is refused in one line,
 * before anything is created, unless --report-dir-outside. Links here point from one temporary
 * directory into another; nothing is written under /etc or $HOME. And a report directory that cannot
 * be written says the older report it still holds (reports/older-report.ts).
 */
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { ConformanceRunError, runConformance } from '../cli/api.ts';
import { ROOT, runCli, spawned } from './support/harness.ts';
import { stackLines, stderrLines } from './support/hostile-server.ts';

test.describe.configure({ mode: 'parallel' });

/** A "private" directory (a key beside it) and a link to it from another temporary directory. */
function linkedPrivateDir(): { privateDir: string; link: string } {
  const privateDir = mkdtempSync(join(tmpdir(), 'report-private-'));
  mkdirSync(join(privateDir, 'ssh'));
  writeFileSync(join(privateDir, 'ssh', 'id_ed25519'), 'not a real key\n');
  const link = join(mkdtempSync(join(tmpdir(), 'report-link-')), 'reports');
  symlinkSync(privateDir, link);
  return { privateDir, link };
}

const GREP = ['--grep', 'files\\.limit\\.bounds'];

test('a report directory whose parent is a link leading outside: one line, exit 2, nothing created there (with --force too)', async () => {
  const { privateDir, link } = linkedPrivateDir();
  for (const [dir, extra] of [
    [join(link, 'latest'), []],
    [join(link, 'ssh'), ['--force']],
  ] as const) {
    const run = await runCli([...GREP, ...extra], { reportDir: dir, timeoutMs: 60_000 });
    expect(stackLines(run)).toEqual([]);
    expect(run.code, run.stdout + run.stderr).toBe(2);
    expect(stderrLines(run)).toEqual([
      `conformance: report directory ${dir}: ${link} is a symbolic link leading outside the directory the run was started from (to ${privateDir}); pass --report-dir-outside to write there`,
    ]);
    expect(readdirSync(privateDir)).toEqual(['ssh']);
    expect(readdirSync(join(privateDir, 'ssh'))).toEqual(['id_ed25519']);
  }
  // Allowed explicitly, the run writes there.
  const allowed = await runCli([...GREP, '--report-dir-outside'], {
    reportDir: join(link, 'latest'),
    timeoutMs: 90_000,
  });
  expect(allowed.code, allowed.stdout + allowed.stderr).toBe(0);
  expect(existsSync(join(privateDir, 'latest', 'report.json'))).toBe(true);
  expect(allowed.report?.run.replay).toContain('--report-dir-outside');
});

test('runConformance: a reportDir through such a link is refused unless reportDirOutside', async () => {
  const { privateDir, link } = linkedPrivateDir();
  await expect(runConformance({ grep: 'files\\.limit\\.bounds', reportDir: join(link, 'latest') })).rejects.toThrow(
    ConformanceRunError,
  );
  expect(readdirSync(privateDir)).toEqual(['ssh']);
  const report = await runConformance({
    grep: 'files\\.limit\\.bounds',
    reportDir: join(link, 'latest'),
    reportDirOutside: true,
  });
  expect(report.verdict).toBe('conformant');
  expect(existsSync(join(privateDir, 'latest', 'report.json'))).toBe(true);
});

// In-process: runConformance prepares its reportDir as the command prepares --report-dir (reports/write-report.ts).
test('a report directory reached through no link is written as before, wherever it is', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'report-plain-'));
  mkdirSync(join(dir, 'a'));
  const report = await runConformance({ grep: 'files\\.limit\\.bounds', reportDir: join(dir, 'a', 'latest') });
  expect(report.verdict).toBe('conformant');
  expect(existsSync(join(dir, 'a', 'latest', 'report.json'))).toBe(true);
});

test('a report directory that cannot be written and holds an older report: the line says which verdict remains there', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'report-readonly-'));
  // Writable by the unprivileged user below (its TMPDIR and compile caches); the report directory is not.
  chmodSync(dir, 0o777);
  const reportDir = join(dir, 'latest');
  mkdirSync(reportDir);
  writeFileSync(join(reportDir, '.conformance-report'), 'entries: ["report.json"]\n');
  writeFileSync(join(reportDir, 'report.json'), '{\n  "specVersion": "1.0.0",\n  "verdict": "conformant"\n}\n');
  chmodSync(reportDir, 0o555);
  // Root writes through any mode: the command then runs as an unprivileged user (setpriv, util-linux).
  const wrapper = process.getuid?.() === 0 ? ['setpriv', '--reuid', '65534', '--regid', '65534', '--clear-groups'] : [];
  // From the source (tsx): the test build's directory is the test process's own (mode 0700).
  const command = [...wrapper, process.execPath, '--import', 'tsx', join(ROOT, 'cli/conformance.ts')];
  const run = await spawned(command[0]!, [...command.slice(1), '--report-dir', reportDir, ...GREP], {
    cwd: ROOT,
    env: { ...process.env, NODE_COMPILE_CACHE: join(dir, 'cache'), TMPDIR: dir, FORCE_COLOR: '0' },
    timeoutMs: 60_000,
  });
  expect(run.code, run.stdout + run.stderr).toBe(2);
  expect(stderrLines(run)).toEqual([
    expect.stringMatching(
      new RegExp(
        `^conformance: report directory ${reportDir}: EACCES .*; an older report remains there \\(report\\.json, verdict CONFORMANT\\): it is not this run's$`,
      ),
    ),
  ]);
});
