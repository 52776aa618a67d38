/**
 * Report files written safely (reports/safe-files.ts through reports/write-report.ts): links refused
 * and their targets untouched, foreign directories refused unless forced, old files cleared, every
 * file written whole (temporary name, then rename) and masked after rendering.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import { Mask } from '../core/text/mask.ts';
import { replaceWithErrorReport } from '../reports/error-report.ts';
import type { ConformanceReport } from '../reports/model.ts';
import { LOCK, MARKER } from '../reports/safe-files.ts';
import { prepareReportDir, REPORT_FILES, ReportDirError, writeReportFiles } from '../reports/write-report.ts';
import { findKeys } from './support/key-scan.ts';
import { oneFailureReport } from './support/synthetic-report.ts';

const ROOT = dirname(dirname(fileURLToPath(import.meta.url)));
const KEY = 'report-files-key-0123456789abcdef';
const mask = new Mask([{ value: KEY, placeholder: '$API_KEY' }]);
const ESCAPED_KEY = [...KEY].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');

/** A report whose one failure holds a body echoing the key as JSON escapes (parsed again by report.html). */
function report(): ConformanceReport {
  return oneFailureReport({
    checkId: 'files.response.schema',
    reason: `echoed ${KEY}`,
    message: `body echoes ${ESCAPED_KEY}`,
    exchange: {
      request: {
        method: 'GET',
        url: `http://127.0.0.1:1/v1/containers/c/files?after=${encodeURIComponent(KEY)}`,
        headers: { authorization: 'Bearer $API_KEY' },
      },
      response: {
        status: 200,
        headers: { [`x-${KEY}`]: Buffer.from(`xy${KEY}`).toString('base64') },
        body: `{"echo":"${ESCAPED_KEY}","also":"${KEY.toUpperCase()}"}`,
        truncated: false,
      },
    },
    observed: { echoed: KEY },
  });
}

const tempDir = () => mkdtempSync(join(tmpdir(), 'report-files-'));
const suiteFiles = (dir: string) =>
  readdirSync(dir)
    .filter((n) => n !== MARKER)
    .sort();

test('every file is masked after rendering: the key JSON-escaped in a body that report.html parses and shows again', () => {
  const r = report();
  // Without the last pass the key would be in the rendered output (this is what the pass is for).
  expect(findKeys(REPORT_FILES['report.html'](r), [KEY])).not.toEqual([]);
  const dir = tempDir();
  writeReportFiles(r, dir, { mask });
  expect(suiteFiles(dir)).toEqual(Object.keys(REPORT_FILES).sort());
  for (const name of Object.keys(REPORT_FILES))
    expect(findKeys(readFileSync(join(dir, name), 'utf8'), [KEY]), name).toEqual([]);
  expect(readFileSync(join(dir, 'report.html'), 'utf8')).toContain('$API_KEY');
  expect(JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')).verdict).toBe('non-conformant');
  // No temporary file is left behind.
  expect(readdirSync(dir).filter((n) => n.endsWith('.tmp'))).toEqual([]);
});

test('a symbolic link at an output path is refused in one line, and the file it points to is untouched', () => {
  const dir = tempDir();
  const victim = join(tempDir(), 'bashrc');
  writeFileSync(victim, 'precious\n');
  symlinkSync(victim, join(dir, 'report.html'));
  let error: unknown;
  try {
    writeReportFiles(report(), dir, { mask, force: true });
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(ReportDirError);
  expect((error as Error).message).toMatch(
    /^report directory \S+: report\.html is a symbolic link; refusing to write through it \(remove it\)$/,
  );
  expect(readFileSync(victim, 'utf8')).toBe('precious\n');
  // Nothing was written before the refusal.
  expect(existsSync(join(dir, 'report.json'))).toBe(false);
  // prepareReportDir refuses it too (a dangling link as well), and does not remove it.
  symlinkSync(join(dir, 'nowhere'), join(dir, 'junit.xml'));
  expect(() => prepareReportDir(dir)).toThrow(/report\.html is a symbolic link|junit\.xml is a symbolic link/);
  expect(readFileSync(victim, 'utf8')).toBe('precious\n');
});

test('a report directory that is itself a symbolic link is refused, whatever it points to', () => {
  const real = tempDir();
  const link = join(tempDir(), 'reports');
  symlinkSync(real, link);
  expect(() => prepareReportDir(link)).toThrow(ReportDirError);
  expect(() => writeReportFiles(report(), link, { mask })).toThrow(
    /^report directory \S+ is a symbolic link; refusing to write through it/,
  );
  expect(readdirSync(real)).toEqual([]);
});

test('a directory holding files the suite did not write is refused unless forced; forced, those files are kept', () => {
  const dir = tempDir();
  writeFileSync(join(dir, 'README.md'), 'mine\n');
  mkdirSync(join(dir, 'src'));
  expect(() => prepareReportDir(dir)).toThrow(
    /^report directory \S+ holds files the suite did not write \(README\.md, src\); choose an empty directory or pass --force$/,
  );
  expect(() => writeReportFiles(report(), dir, { mask })).toThrow(ReportDirError);
  expect(readdirSync(dir).sort()).toEqual(['README.md', 'src']);
  prepareReportDir(dir, { force: true });
  writeReportFiles(report(), dir, { mask });
  expect(readFileSync(join(dir, 'README.md'), 'utf8')).toBe('mine\n');
  expect(existsSync(join(dir, 'report.json'))).toBe(true);
});

test("a run writes its directory anew: the previous run's files and blob/ are removed first (blob/ kept for a merge)", () => {
  const dir = tempDir();
  // A shard run: Playwright's blob reporter made blob/, and the report lists it as the suite's.
  mkdirSync(join(dir, 'blob'));
  writeFileSync(join(dir, 'blob', 'report-1.zip'), 'old');
  writeReportFiles({ ...report(), run: { ...report().run, shard: '1/2' } }, dir, { mask, force: true });
  prepareReportDir(dir, { keepBlob: true });
  // The lock says a run is writing the directory until its report is written.
  expect(readdirSync(dir).sort()).toEqual([LOCK, MARKER, 'blob'].sort());
  expect(readdirSync(join(dir, 'blob'))).toEqual(['report-1.zip']);
  prepareReportDir(dir);
  expect(readdirSync(dir).sort()).toEqual([LOCK, MARKER].sort());
  // A run that stops before writing leaves no stale report behind; the next write is accepted.
  writeReportFiles(report(), dir, { mask });
  expect(suiteFiles(dir)).toEqual(Object.keys(REPORT_FILES).sort());
});

test('a path that cannot be written (a directory named report.json, a directory under a file) is one line, not a stack', () => {
  const dir = tempDir();
  mkdirSync(join(dir, 'report.json'));
  expect(() => writeReportFiles(report(), dir, { mask })).toThrow(
    /^report directory \S+: report\.json is a directory; the suite writes a file there$/,
  );
  const notDir = join(tempDir(), 'file');
  writeFileSync(notDir, 'x');
  expect(() => prepareReportDir(notDir)).toThrow(/^report directory \S+ is not a directory$/);
  // The file in the way is named, in words rather than an errno.
  expect(() => prepareReportDir(join(notDir, 'sub', 'deeper'))).toThrow(
    new RegExp(`^report directory \\S+: ${notDir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is a file, not a directory$`),
  );
});

// No user file lost. What the suite removes is what its marker lists: a user's own
// report.html or blob/ beside no marker is foreign (refused; with --force kept, never removed).
test("a user's report.html or blob/ in a directory the suite never wrote is foreign: refused, and --force removes neither", () => {
  const dir = tempDir();
  mkdirSync(join(dir, 'blob'));
  writeFileSync(join(dir, 'blob', 'mine.txt'), 'mine\n');
  writeFileSync(join(dir, 'notes.txt'), 'mine\n');
  expect(() => prepareReportDir(dir)).toThrow(/holds files the suite did not write \(blob, notes\.txt\)/);
  prepareReportDir(dir, { force: true });
  expect(readFileSync(join(dir, 'blob', 'mine.txt'), 'utf8')).toBe('mine\n');
  // Forced, the suite writes beside the user's files; a later run (forced again: blob/ is still the
  // user's) removes what the suite wrote, never blob/.
  writeReportFiles(report(), dir, { mask, force: true });
  expect(readdirSync(dir)).not.toContain(LOCK);
  prepareReportDir(dir, { force: true });
  expect(readdirSync(dir).sort()).toEqual([LOCK, MARKER, 'blob', 'notes.txt'].sort());
  expect(readFileSync(join(dir, 'blob', 'mine.txt'), 'utf8')).toBe('mine\n');
});

// --force writes beside a user's files, never over one at a name the suite writes.
test("--force does not replace a user's report.html: refused in one line naming it, before the run and at the write", () => {
  const dir = tempDir();
  writeFileSync(join(dir, 'report.html'), 'my own page\n');
  const refusal =
    /^report directory \S+: report\.html is not the suite's \(not listed in \.conformance-report\); even with --force the suite does not replace it \(move it or choose another --report-dir\)$/;
  expect(() => prepareReportDir(dir, { force: true })).toThrow(refusal);
  expect(() => writeReportFiles(report(), dir, { mask, force: true })).toThrow(refusal);
  expect(readFileSync(join(dir, 'report.html'), 'utf8')).toBe('my own page\n');
  expect(existsSync(join(dir, 'report.json'))).toBe(false);
});

// A write that fails part-way (a full disk, a file size limit) leaves no report files at
// all, not a report.json that reads CONFORMANT beside an exit code of 2. The limit (ulimit -f, with
// SIGXFSZ ignored so that the write fails with EFBIG as it would with ENOSPC) lets the small files
// through and stops report.html.
test('a write that fails part-way leaves none of the report files (no report contradicts the exit code)', () => {
  const dir = tempDir();
  // report.json and junit.xml fit under the limit, report.html does not: written in that order, the
  // first two would have been in place when the third failed.
  const script = `import { writeFilesSafely } from ${JSON.stringify(join(ROOT, 'reports/safe-files.ts'))};
import { REPORT_ENTRIES } from ${JSON.stringify(join(ROOT, 'reports/write-report.ts'))};
const files = new Map([['report.json', '{"verdict":"conformant"}'], ['junit.xml', '<testsuites failures="0"/>'], ['report.html', 'x'.repeat(64 * 1024)], ['badge.svg', '<svg/>']]);
try { writeFilesSafely(process.argv[1], files, REPORT_ENTRIES); console.log('written'); } catch (e) { console.log(e.message); }`;
  const run = spawnSync(
    'bash',
    ['-c', `trap '' XFSZ; ulimit -f 16; exec node --import tsx --input-type=module -e "$0" "$1"`, script, dir],
    { cwd: ROOT, encoding: 'utf8' },
  );
  expect(run.stdout.trim(), run.stderr).toMatch(/^report directory \S+: EFBIG on write$/);
  // The marker only (it lists what a later run may remove): no report file, no temporary file.
  expect(readdirSync(dir)).toEqual([MARKER]);
});

test('one run at a time: a directory locked by a live process is refused in one line; a lock left by a dead one is taken over', () => {
  const dir = tempDir();
  const { pid } = process.ppid > 1 ? { pid: process.ppid } : { pid: 1 };
  writeFileSync(join(dir, LOCK), `${pid}\n`);
  expect(() => prepareReportDir(dir)).toThrow(
    new RegExp(`^report directory \\S+ is being written by another run \\(process ${pid}, named in `),
  );
  writeFileSync(join(dir, LOCK), '999999999\n');
  prepareReportDir(dir);
  expect(readFileSync(join(dir, LOCK), 'utf8').trim().split(' ')[0]).toBe(String(process.pid));
});

test('runs in one process, one after another, leave no lock behind and add at most one exit listener in all', () => {
  prepareReportDir(tempDir());
  const before = process.listenerCount('exit');
  const dirs = Array.from({ length: 12 }, () => tempDir());
  for (const dir of dirs) {
    prepareReportDir(dir);
    writeReportFiles(report(), dir, { mask });
  }
  expect(process.listenerCount('exit')).toBe(before);
  expect(dirs.filter((dir) => existsSync(join(dir, LOCK)))).toEqual([]);
});

// A lock naming a live process that is not the run which wrote it (its id reused: the
// start time differs) is stale, and a refusal names the lock file.
test("a stale lock naming a live unrelated process is taken over; a live run's lock is refused naming the file", () => {
  const dir = tempDir();
  const pid = Math.max(process.ppid, 1);
  writeFileSync(join(dir, LOCK), `${pid} 1\n`);
  prepareReportDir(dir);
  expect(readFileSync(join(dir, LOCK), 'utf8').trim().split(' ')[0]).toBe(String(process.pid));
  const started = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const startTime = started.slice(started.lastIndexOf(')') + 2).split(' ')[19];
  const other = tempDir();
  writeFileSync(join(other, LOCK), `${pid} ${startTime}\n`);
  expect(() => prepareReportDir(other)).toThrow(
    new RegExp(
      `^report directory \\S+ is being written by another run \\(process ${pid}, named in \\S+/\\.conformance-lock\\); wait for it to end, or remove that file if no run is writing, or choose another --report-dir$`,
    ),
  );
});

// An exit 2 before the first check replaces the earlier report with its error, and removes
// only what the suite wrote.
test("an early exit 2 replaces the suite's report with the error's two files; a user's file stays; a foreign directory is left alone", () => {
  const dir = tempDir();
  writeReportFiles(report(), dir, { mask });
  expect(replaceWithErrorReport(dir, 'target file t.yaml: no such file', 2)).toBe(true);
  expect(suiteFiles(dir)).toEqual(['junit.xml', 'summary.md']);
  expect(readFileSync(join(dir, 'junit.xml'), 'utf8')).toMatch(
    /<testsuites [^>]*tests="1" failures="0" errors="1"[\s\S]*<error message="target file t\.yaml: no such file" type="exit-2">/,
  );
  expect(readFileSync(join(dir, 'summary.md'), 'utf8')).toMatch(
    /^## ⚠️ Conformance: ERROR — the run could not be made \(exit 2\)\n\nReason: `target file t\.yaml: no such file`/,
  );
  // The next run writes its report over the error's.
  writeReportFiles(report(), dir, { mask });
  expect(suiteFiles(dir)).toEqual(Object.keys(REPORT_FILES).sort());

  // A forced directory: the suite's files go, the user's stay.
  const mixed = tempDir();
  writeFileSync(join(mixed, 'notes.txt'), 'mine\n');
  writeReportFiles(report(), mixed, { mask, force: true });
  expect(replaceWithErrorReport(mixed, 'bad', 2, { force: true })).toBe(true);
  expect(
    readdirSync(mixed)
      .filter((n) => n !== MARKER)
      .sort(),
  ).toEqual(['junit.xml', 'notes.txt', 'summary.md']);
  expect(readFileSync(join(mixed, 'notes.txt'), 'utf8')).toBe('mine\n');

  // Foreign files without --force: nothing is touched, nothing written.
  const foreign = tempDir();
  writeFileSync(join(foreign, 'report.json'), '{"verdict":"mine"}');
  expect(replaceWithErrorReport(foreign, 'bad', 2)).toBe(false);
  expect(readdirSync(foreign)).toEqual(['report.json']);
});
