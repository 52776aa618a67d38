/**
 * Writing files into a report directory safely (rule "Hostile input"). Report directories are uploaded as CI
 * artefacts and reused from run to run, so:
 *
 * - a report directory that is a symbolic link, or a symbolic link at any output path, is refused: a
 *   planted `report.html -> ~/.bashrc` would otherwise be overwritten with the report; so is a path
 *   with a link in any component that leads outside the directory the run was started from (a
 *   committed `reports -> /etc` would have the run create and write directories there), unless the
 *   user allows it (`outside`, --report-dir-outside);
 * - each file is written under a temporary name in the directory (created exclusively, never through
 *   a link), and only when every one is written are they renamed into place: a reader never sees
 *   half a report, a rename replaces a path without following it, and a write that fails (a full
 *   disk, a read-only file) leaves none of the files, so no report contradicts the exit code;
 * - a directory holding files the suite did not write is refused unless forced (`--report-dir .` by
 *   mistake would otherwise mix the report into a project), and a run clears the suite's own old
 *   files first, so no stale report survives a run that ends early;
 * - what is the suite's is what its marker lists (the files it wrote, blob/ when a shard run made
 *   it): a `report.html` of the user's in a directory without the marker is foreign, and `--force`
 *   neither removes nor replaces anything the marker does not list (a foreign file at a name the
 *   suite writes is refused even when forced);
 * - one run at a time: a lock file names the process writing the directory (its id and start time);
 *   a second run is refused in one line naming the lock file, a lock left by a process that is gone
 *   (or whose id a later process took) is taken over.
 *
 * Every refusal is a ReportDirError with a one-line message: the CLI prints it and exits 2.
 */
import { randomBytes } from 'node:crypto';
import {
  closeSync,
  constants,
  lstatSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  unlinkSync,
  writeSync,
  type Stats,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { linkLeadingOutside } from '../os/links.ts';
import { makeDirs } from './make-dir.ts';
import { olderReportNote } from './older-report.ts';
import { terminalSafe } from '../core/text/terminal-text.ts';
import { alive } from '../os/process.ts';

export class ReportDirError extends Error {
  override readonly name = 'ReportDirError';
}

/** Written into every directory the suite prepared: it lists what the suite wrote there. */
export const MARKER = '.conformance-report';
/** The process writing the directory now (one run at a time). */
export const LOCK = '.conformance-lock';

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
export function prepareDir(
  dir: string,
  owned: OwnedEntries,
  options: { force?: boolean; keep?: readonly string[]; outside?: boolean } = {},
): void {
  oneLineErrors(dir, () => prepare(dir, owned, options));
}

function prepare(
  dir: string,
  owned: OwnedEntries,
  options: { force?: boolean; keep?: readonly string[]; outside?: boolean },
): void {
  ensureDir(dir, options.outside);
  const entries = readdirSync(dir);
  const listed = new Set(markerEntries(dir) ?? []);
  // `keep` names an input the caller placed there (a merge's blob/): neither foreign nor removed.
  const ours = (name: string) =>
    name === MARKER || name === LOCK || TEMP.test(name) || listed.has(name) || (options.keep?.includes(name) ?? false);
  for (const name of entries.filter((n) => owned.files.includes(n) || owned.dirs.includes(n)))
    if (lstatSync(join(dir, name)).isSymbolicLink()) throw linkError(dir, name);
  const foreign = entries.filter((name) => !ours(name));
  if (foreign.length && !options.force) throw foreignError(dir, foreign);
  refuseReplacing(
    dir,
    foreign.filter((name) => owned.files.includes(name)),
  );
  // Held from here until the run's report is written (write() releases it) or the process ends.
  lock(dir);
  for (const name of entries.filter(ours)) {
    const path = join(dir, name);
    const st = lstatSync(path);
    if (st.isSymbolicLink()) throw linkError(dir, name);
    if (name === MARKER || name === LOCK || options.keep?.includes(name)) continue;
    if (owned.dirs.includes(name) && st.isDirectory()) rmSync(path, { recursive: true });
    else if (st.isDirectory())
      throw new ReportDirError(
        `report directory ${terminalSafe(dir)}: ${terminalSafe(name)} is a directory; the suite writes a file there`,
      );
    else unlinkSync(path);
  }
  writeMarker(dir, options.keep?.filter((k) => listed.has(k)) ?? []);
}

/**
 * Writes each file of `files` (name -> content) into `dir` under a temporary name, then renames it
 * into place. The directory and every output path are checked for links first; a directory the
 * suite did not prepare (no marker) is checked for foreign entries as prepareDir does.
 */
export function writeFilesSafely(
  dir: string,
  files: ReadonlyMap<string, string>,
  owned: OwnedEntries,
  options: { force?: boolean; alsoOwned?: readonly string[]; outside?: boolean } = {},
): void {
  oneLineErrors(dir, () => write(dir, files, owned, options));
}

function write(
  dir: string,
  files: ReadonlyMap<string, string>,
  owned: OwnedEntries,
  options: { force?: boolean; alsoOwned?: readonly string[]; outside?: boolean },
): void {
  ensureDir(dir, options.outside);
  for (const name of files.keys()) {
    const st = lstatOrUndefined(join(dir, name));
    if (st?.isSymbolicLink()) throw linkError(dir, name);
    if (st?.isDirectory())
      throw new ReportDirError(
        `report directory ${terminalSafe(dir)}: ${terminalSafe(name)} is a directory; the suite writes a file there`,
      );
  }
  const listed = markerEntries(dir);
  if (listed === undefined) {
    const foreign = readdirSync(dir).filter((name) => name !== LOCK && !TEMP.test(name));
    if (foreign.length && !options.force) throw foreignError(dir, foreign);
  }
  refuseReplacing(
    dir,
    [...files.keys()].filter(
      (name) => !(listed ?? []).includes(name) && lstatOrUndefined(join(dir, name)) !== undefined,
    ),
  );
  const also = (options.alsoOwned ?? []).filter(
    (n) => owned.dirs.includes(n) && lstatOrUndefined(join(dir, n))?.isDirectory(),
  );
  writeMarker(dir, [...new Set([...(listed ?? []), ...files.keys(), ...also])]);
  writeAllOrNone(dir, files);
  unlock(dir);
}

/** `--force` writes beside foreign files, never over them: a user's report.html is not the suite's to replace. */
function refuseReplacing(dir: string, names: readonly string[]): void {
  if (names.length === 0) return;
  const named = [...names]
    .sort()
    .map((n) => terminalSafe(n))
    .join(', ');
  throw new ReportDirError(
    `report directory ${terminalSafe(dir)}: ${named} ${names.length > 1 ? 'are' : 'is'} not the suite's (not listed in ${MARKER}); even with --force the suite does not replace it (move it or choose another --report-dir)`,
  );
}

/**
 * Every file written under a temporary name first, then all renamed: a failed write (ENOSPC, EROFS,
 * EDQUOT) removes what this call wrote and leaves none of the files, so no report.json says
 * CONFORMANT beside an exit code of 2.
 */
function writeAllOrNone(dir: string, files: ReadonlyMap<string, string>): void {
  const temps: Array<{ temp: string; name: string }> = [];
  const renamed: string[] = [];
  try {
    for (const [name, content] of files) temps.push({ temp: writeTemp(dir, name, content), name });
    for (const { temp, name } of temps) {
      // rename(2) replaces the path itself: a link planted after the check above is replaced, not followed.
      renameSync(temp, join(dir, name));
      renamed.push(name);
    }
  } catch (e) {
    for (const { temp } of temps) rmSync(temp, { force: true });
    for (const name of renamed) rmSync(join(dir, name), { force: true });
    throw e;
  }
}

/** Errors of a directory the run may not or cannot write into. */
const CANNOT_WRITE: ReadonlySet<string> = new Set(['EACCES', 'EPERM', 'EROFS']);

/** A file-system error (no permission, no space, read-only) as one line naming the directory. */
function oneLineErrors(dir: string, fn: () => void): void {
  try {
    fn();
  } catch (e) {
    if (e instanceof ReportDirError) throw e;
    const err = e as NodeJS.ErrnoException;
    const fileInTheWay = err.code === 'ENOTDIR' ? firstFileOnPath(dir) : undefined;
    if (fileInTheWay)
      throw new ReportDirError(
        `report directory ${terminalSafe(dir)}: ${terminalSafe(fileInTheWay)} is a file, not a directory`,
      );
    // A directory that cannot be written may still hold an earlier run's report: the line says so.
    const older = err.code && CANNOT_WRITE.has(err.code) ? olderReportNote(dir) : undefined;
    throw new ReportDirError(
      `report directory ${terminalSafe(dir)}: ${err.code ?? 'error'}${err.syscall ? ` on ${err.syscall}` : ''}${err.path ? ` of ${terminalSafe(err.path)}` : ''}${older ? `; ${older}` : ''}`,
    );
  }
}

/**
 * The directory, created if missing; refused when it is a link or not a directory, or when a
 * component of its path is a link leading outside the working directory (unless `outside`): checked
 * before anything is created.
 */
function ensureDir(dir: string, outside = false): void {
  let st = lstatOrUndefined(dir);
  // The directory itself a link is refused whatever it points to, --report-dir-outside or not.
  if (!st?.isSymbolicLink()) {
    const link = outside ? undefined : linkLeadingOutside(dir, process.cwd(), [tmpdir()]);
    if (link)
      throw new ReportDirError(
        `report directory ${terminalSafe(dir)}: ${terminalSafe(link.link)} is a symbolic link leading outside the directory the run was started from (to ${terminalSafe(link.to)}); pass --report-dir-outside to write there`,
      );
  }
  if (!st) {
    makeDirs(dir);
    st = lstatSync(dir);
  }
  if (st.isSymbolicLink())
    throw new ReportDirError(
      `report directory ${terminalSafe(dir)} is a symbolic link; refusing to write through it (give the directory it points to)`,
    );
  if (!st.isDirectory()) throw new ReportDirError(`report directory ${terminalSafe(dir)} is not a directory`);
}

/** The marker's list of what the suite wrote, or undefined when the directory has no marker. */
function markerEntries(dir: string): string[] | undefined {
  const path = join(dir, MARKER);
  const st = lstatOrUndefined(path);
  if (!st) return undefined;
  if (st.isSymbolicLink() || !st.isFile()) throw linkError(dir, MARKER);
  const text = readFileSync(path, 'utf8');
  const m = /^entries: (.*)$/m.exec(text);
  // A marker of an earlier version lists nothing: the report files are the suite's.
  if (!m) return ['report.json', 'junit.xml', 'summary.md', 'report.html', 'badge.svg'];
  try {
    const list = JSON.parse(m[1]!) as unknown;
    return Array.isArray(list)
      ? list.filter((x): x is string => typeof x === 'string' && !x.includes('/') && x !== '..' && x !== '.')
      : [];
  } catch {
    return [];
  }
}

function writeMarker(dir: string, entries: readonly string[]): void {
  const st = lstatOrUndefined(join(dir, MARKER));
  if (st?.isSymbolicLink()) throw linkError(dir, MARKER);
  writeViaRename(
    dir,
    MARKER,
    `This directory holds a conformance report; each run of the suite replaces the files listed below, and only those.\nentries: ${JSON.stringify([...entries].sort())}\n`,
  );
}

const held = new Set<string>();
let exitHooked = false;

/**
 * One exit listener for the process, releasing the locks it still holds: a program that runs the
 * suite in process again and again (runConformance) adds no listener per run.
 */
function releaseHeldOnExit(): void {
  if (exitHooked) return;
  exitHooked = true;
  process.once('exit', () => {
    for (const path of held) {
      try {
        if (lockPid(readFileSync(path, 'utf8')) === process.pid) unlinkSync(path);
      } catch {
        // Gone already.
      }
    }
  });
}

/**
 * Takes the directory's lock for this process, released when the process exits. A lock of a live
 * process is a second run writing the same directory: refused in one line. A lock of a process that
 * is gone (killed, crashed) is taken over.
 */
function lock(dir: string): void {
  const path = join(dir, LOCK);
  if (held.has(path)) return;
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(
        path,
        constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
        0o644,
      );
      writeSync(fd, `${`${process.pid} ${startTimeOf(process.pid) ?? ''}`.trim()}\n`);
      closeSync(fd);
      held.add(path);
      releaseHeldOnExit();
      return;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      const st = lstatSync(path);
      if (st.isSymbolicLink()) throw linkError(dir, LOCK);
      const text = readFileSync(path, 'utf8');
      const pid = lockPid(text);
      if (pid !== undefined && pid !== process.pid && alive(pid) && sameProcess(pid, text)) {
        throw new ReportDirError(
          `report directory ${terminalSafe(dir)} is being written by another run (process ${pid}, named in ${terminalSafe(join(dir, LOCK))}); wait for it to end, or remove that file if no run is writing, or choose another --report-dir`,
        );
      }
      unlinkSync(path);
    }
  }
  throw new ReportDirError(`report directory ${terminalSafe(dir)}: its lock could not be taken`);
}

/** Releases the lock this process holds on `dir`, if it holds one. */
function unlock(dir: string): void {
  const path = join(dir, LOCK);
  if (!held.delete(path)) return;
  try {
    if (lockPid(readFileSync(path, 'utf8')) === process.pid) unlinkSync(path);
  } catch {
    // Gone already.
  }
}

/** The process id a lock names (its first word), or undefined. */
function lockPid(text: string): number | undefined {
  const pid = Number(text.trim().split(/\s+/)[0]);
  return Number.isInteger(pid) && pid > 0 ? pid : undefined;
}

/**
 * Whether the live process `pid` is the one that wrote the lock: a lock records its writer's start
 * time (Linux: /proc/<pid>/stat), and a process id reused since (a reboot, a container restarted,
 * a long-lived unrelated process) starts at another time. Without a recorded or readable start time
 * the id alone decides.
 */
function sameProcess(pid: number, text: string): boolean {
  const recorded = text.trim().split(/\s+/)[1];
  if (recorded === undefined) return true;
  const now = startTimeOf(pid);
  return now === undefined || now === recorded;
}

/** The start time of a process in clock ticks since boot (field 22 of /proc/<pid>/stat), where readable. */
function startTimeOf(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) is in parentheses and may hold spaces: count from after its `)`.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return fields[19];
  } catch {
    return undefined;
  }
}

function writeViaRename(dir: string, name: string, content: string): void {
  const temp = writeTemp(dir, name, content);
  try {
    // rename(2) replaces the path itself: a link planted after the check above is replaced, not followed.
    renameSync(temp, join(dir, name));
  } catch (e) {
    rmSync(temp, { force: true });
    throw e;
  }
}

/** `content` written whole to a new temporary file in `dir` (removed if the write fails); its path. */
function writeTemp(dir: string, name: string, content: string): string {
  const temp = join(dir, `.${name}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  // O_EXCL: the name is new (never an existing file or link); O_NOFOLLOW: never through a link.
  const fd = openSync(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o644);
  try {
    const bytes = Buffer.from(content, 'utf8');
    for (let at = 0; at < bytes.length; ) at += writeSync(fd, bytes, at);
    closeSync(fd);
  } catch (e) {
    try {
      closeSync(fd);
    } catch {
      // Closed already (the failure was at close: ENOSPC on a delayed write).
    }
    rmSync(temp, { force: true });
    throw e;
  }
  return temp;
}

function foreignError(dir: string, foreign: string[]): ReportDirError {
  const sorted = [...foreign].sort();
  const named =
    sorted
      .slice(0, 3)
      .map((n) => terminalSafe(n))
      .join(', ') + (sorted.length > 3 ? ` and ${sorted.length - 3} more` : '');
  return new ReportDirError(
    `report directory ${terminalSafe(dir)} holds files the suite did not write (${named}); choose an empty directory or pass --force`,
  );
}

function linkError(dir: string, name: string): ReportDirError {
  return new ReportDirError(
    `report directory ${terminalSafe(dir)}: ${terminalSafe(name)} is a symbolic link; refusing to write through it (remove it)`,
  );
}

/** The nearest of `dir`'s parents that is there but not a directory (what ENOTDIR met), if any. */
function firstFileOnPath(dir: string): string | undefined {
  for (let at = dirname(resolve(dir)); at !== dirname(at); at = dirname(at)) {
    try {
      if (!statSync(at).isDirectory()) return at;
    } catch {
      // Not there, or itself under a file: its parent says.
    }
  }
  return undefined;
}

function lstatOrUndefined(path: string): Stats | undefined {
  try {
    return lstatSync(path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
}
