/**
 * Writing files into a report directory safely (principle 4). Report directories are uploaded as CI
 * artefacts and reused from run to run, so:
 *
 * - a report directory that is a symbolic link, or a symbolic link at any output path, is refused: a
 *   planted `report.html -> ~/.bashrc` would otherwise be overwritten with the report;
 * - each file is written under a temporary name in the directory (created exclusively, never through
 *   a link) and renamed into place, so a reader never sees half a report and a rename replaces a
 *   path without following it;
 * - a directory holding files the suite did not write is refused unless forced (`--report-dir .` by
 *   mistake would otherwise mix the report into a project), and a run clears the suite's own old
 *   files first, so no stale report survives a run that ends early.
 *
 * Every refusal is a ReportDirError with a one-line message: the CLI prints it and exits 2.
 */
import { randomBytes } from 'node:crypto';
import { closeSync, constants, lstatSync, openSync, readdirSync, renameSync, rmSync, unlinkSync, writeSync, type Stats } from 'node:fs';
import { makeDirs } from './make-dir.ts';
import { join } from 'node:path';
import { terminalSafe } from '../core/terminal-text.ts';

export class ReportDirError extends Error {
  override readonly name = 'ReportDirError';
}

/** Written into every directory the suite prepared: its presence says the directory is the suite's. */
export const MARKER = '.conformance-report';

/** What the suite itself writes in a report directory. */
export interface OwnedEntries {
  files: readonly string[];
  /** Directories the suite writes whole (their content is the suite's). */
  dirs: readonly string[];
}

const TEMP = /^\..+\.\d+\.[0-9a-f]{12}\.tmp$/;

/**
 * Makes `dir` ready for a run: created if missing, refused if it (or one of the suite's names in it)
 * is a symbolic link or if it holds entries the suite does not write (unless `force`); then the
 * suite's own old entries are removed, except those listed in `keep` (a merge reads its blob
 * directory from there), and the marker is written.
 */
export function prepareDir(dir: string, owned: OwnedEntries, options: { force?: boolean; keep?: readonly string[] } = {}): void {
  oneLineErrors(dir, () => prepare(dir, owned, options));
}

function prepare(dir: string, owned: OwnedEntries, options: { force?: boolean; keep?: readonly string[] }): void {
  ensureDir(dir);
  const entries = readdirSync(dir);
  const own = new Set([...owned.files, ...owned.dirs, MARKER]);
  const foreign = entries.filter((name) => !own.has(name) && !TEMP.test(name));
  if (foreign.length && !options.force) throw foreignError(dir, foreign);
  for (const name of entries.filter((n) => own.has(n) || TEMP.test(n))) {
    const path = join(dir, name);
    const st = lstatSync(path);
    if (st.isSymbolicLink()) throw linkError(dir, name);
    if (name === MARKER || options.keep?.includes(name)) continue;
    if (owned.dirs.includes(name) && st.isDirectory()) rmSync(path, { recursive: true });
    else if (st.isDirectory()) throw new ReportDirError(`report directory ${terminalSafe(dir)}: ${terminalSafe(name)} is a directory; the suite writes a file there`);
    else unlinkSync(path);
  }
  writeMarker(dir);
}

/**
 * Writes each file of `files` (name -> content) into `dir` under a temporary name, then renames it
 * into place. The directory and every output path are checked for links first; a directory the
 * suite did not prepare (no marker) is checked for foreign entries as prepareDir does.
 */
export function writeFilesSafely(dir: string, files: ReadonlyMap<string, string>, owned: OwnedEntries, options: { force?: boolean } = {}): void {
  oneLineErrors(dir, () => write(dir, files, owned, options));
}

function write(dir: string, files: ReadonlyMap<string, string>, owned: OwnedEntries, options: { force?: boolean }): void {
  ensureDir(dir);
  if (!exists(join(dir, MARKER))) {
    const own = new Set([...owned.files, ...owned.dirs, MARKER]);
    const foreign = readdirSync(dir).filter((name) => !own.has(name) && !TEMP.test(name));
    if (foreign.length && !options.force) throw foreignError(dir, foreign);
  }
  for (const name of files.keys()) {
    const st = lstatOrUndefined(join(dir, name));
    if (st?.isSymbolicLink()) throw linkError(dir, name);
    if (st?.isDirectory()) throw new ReportDirError(`report directory ${terminalSafe(dir)}: ${terminalSafe(name)} is a directory; the suite writes a file there`);
  }
  writeMarker(dir);
  for (const [name, content] of files) writeViaRename(dir, name, content);
}

/** A file-system error (no permission, no space, read-only) as one line naming the directory. */
function oneLineErrors(dir: string, fn: () => void): void {
  try {
    fn();
  } catch (e) {
    if (e instanceof ReportDirError) throw e;
    const err = e as NodeJS.ErrnoException;
    throw new ReportDirError(`report directory ${terminalSafe(dir)}: ${err.code ?? 'error'}${err.syscall ? ` on ${err.syscall}` : ''}${err.path ? ` of ${terminalSafe(err.path)}` : ''}`);
  }
}

/** The directory, created if missing; refused when it is a link or not a directory. */
function ensureDir(dir: string): void {
  let st = lstatOrUndefined(dir);
  if (!st) {
    makeDirs(dir);
    st = lstatSync(dir);
  }
  if (st.isSymbolicLink()) throw new ReportDirError(`report directory ${terminalSafe(dir)} is a symbolic link; refusing to write through it (give the directory it points to)`);
  if (!st.isDirectory()) throw new ReportDirError(`report directory ${terminalSafe(dir)} is not a directory`);
}

function writeMarker(dir: string): void {
  const path = join(dir, MARKER);
  const st = lstatOrUndefined(path);
  if (st?.isSymbolicLink()) throw linkError(dir, MARKER);
  if (!st) writeViaRename(dir, MARKER, 'This directory holds a conformance report; each run of the suite replaces its files.\n');
}

function writeViaRename(dir: string, name: string, content: string): void {
  const temp = join(dir, `.${name}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  // O_EXCL: the name is new (never an existing file or link); O_NOFOLLOW: never through a link.
  const fd = openSync(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o644);
  try {
    const bytes = Buffer.from(content, 'utf8');
    for (let at = 0; at < bytes.length; ) at += writeSync(fd, bytes, at);
  } catch (e) {
    closeSync(fd);
    rmSync(temp, { force: true });
    throw e;
  }
  closeSync(fd);
  try {
    // rename(2) replaces the path itself: a link planted after the check above is replaced, not followed.
    renameSync(temp, join(dir, name));
  } catch (e) {
    rmSync(temp, { force: true });
    throw e;
  }
}

function foreignError(dir: string, foreign: string[]): ReportDirError {
  const sorted = [...foreign].sort();
  const named = sorted.slice(0, 3).map((n) => terminalSafe(n)).join(', ') + (sorted.length > 3 ? ` and ${sorted.length - 3} more` : '');
  return new ReportDirError(`report directory ${terminalSafe(dir)} holds files the suite did not write (${named}); choose an empty directory or pass --force`);
}

function linkError(dir: string, name: string): ReportDirError {
  return new ReportDirError(`report directory ${terminalSafe(dir)}: ${terminalSafe(name)} is a symbolic link; refusing to write through it (remove it)`);
}

function lstatOrUndefined(path: string): Stats | undefined {
  try {
    return lstatSync(path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
}

function exists(path: string): boolean {
  return lstatOrUndefined(path) !== undefined;
}
