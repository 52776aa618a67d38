/**
 * `conformance diff A/report.json B/report.json [--html FILE]` (in a clone: `npm run conformance:diff --`):
 * where two implementations, or two runs, part ways: the requirements whose status differs and the
 * observations of the implementation profile that differ (reports/diff-compare.ts), side by side on
 * the console and, with --html, as one self-contained page.
 *
 * Exit code (DIFF_EXIT): 0 the two agree, 1 a requirement's status differs, 3 only observations (the
 * implementation profile: what each chose where the document is silent; counts of what a run saw are
 * not compared, reports/diff-counts.ts) differ, so a certification gate can fail on 1 alone; 2 bad input (a missing or unreadable file, invalid JSON, a file that is
 * not a conformance report, reports of different suite or document versions): one line on stderr,
 * never a stack trace (rule "Bad input exits 2").
 */
import { closeSync, constants, fstatSync, openSync, readSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { terminalSafe } from '../core/text/terminal-text.ts';
import { commandArgs } from './args.ts';
import { commandLine } from './suite-files.ts';
import { compileOwnSchema } from '../spec/schemas.ts';
import { compareReports, incomparable } from '../reports/diff-compare.ts';
import { diffHtml } from '../reports/diff-html.ts';
import { diffText } from '../reports/diff-text.ts';
import type { ConformanceReport } from '../reports/model.ts';
import reportSchema from '../reports/report.schema.json' with { type: 'json' };

export const DIFF_USAGE = `usage: ${commandLine('diff')} A/report.json B/report.json [--html FILE]

Compares two reports of the conformance suite, e.g. your implementation's and the primary one's:
the requirements whose status differs, and the observations of the implementation profile that differ
(what each chose where the service document is silent), side by side. Both reports must come from one
version of the suite and of the service document.

  --html FILE   also write the comparison as one self-contained HTML page
  --help        this text

Exit code: 0 the two agree; 1 the status of a requirement differs; 3 only observations differ
(what each chose where the document is silent: neither side fails on them; counts of what each run
saw, such as requests, pages or timings, are not compared, so a merged report and an unsharded run
of one seed agree); 2 bad input. A gate on conformance fails on 1 (and 2) only.`;

/** The exit codes of a comparison, distinct so that a gate can tell a status from an observation. */
export const DIFF_EXIT = { agree: 0, statuses: 1, badInput: 2, observationsOnly: 3 } as const;

/** A report of a full run is about 100 KB; anything near this is not one, and is not read whole. */
const MAX_REPORT_BYTES = 64 * 1024 * 1024;

class BadInput extends Error {}

function shown(s: string): string {
  return JSON.stringify(terminalSafe(s.length > 200 ? `${s.slice(0, 200)}…` : s));
}

/** The file's text, refused when it is not a regular file or is larger than any report. */
function readBounded(file: string): string {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new BadInput(
      `${shown(file)}: ${code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'permission denied' : `cannot open (${code ?? 'error'})`}`,
    );
  }
  try {
    const st = fstatSync(fd);
    if (st.isDirectory())
      throw new BadInput(`${shown(file)} is a directory: give its report.json (${shown(join(file, 'report.json'))})`);
    if (!st.isFile()) throw new BadInput(`${shown(file)} is not a regular file`);
    if (st.size > MAX_REPORT_BYTES)
      throw new BadInput(`${shown(file)} is ${st.size} bytes, more than any report (${MAX_REPORT_BYTES})`);
    const buf = Buffer.alloc(st.size);
    let at = 0;
    for (let n = 1; n > 0 && at < buf.length; at += n) n = readSync(fd, buf, at, buf.length - at, at);
    return buf.subarray(0, at).toString('utf8');
  } finally {
    closeSync(fd);
  }
}

function loadReport(file: string): ConformanceReport {
  const text = readBounded(file);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new BadInput(`${shown(file)} is not valid JSON (${terminalSafe((e as Error).message.split('\n')[0] ?? '')})`);
  }
  const validate = compileOwnSchema<ConformanceReport>(reportSchema);
  if (!validate(value)) {
    const first = validate.errors?.[0];
    const where = first?.instancePath ? ` at ${first.instancePath}` : '';
    // Ajv names the offending property only in its params: a reader needs it to see what is wrong.
    const extra = (first?.params as { additionalProperty?: unknown } | undefined)?.additionalProperty;
    const named = typeof extra === 'string' ? ` (${JSON.stringify(extra)})` : '';
    throw new BadInput(
      `${shown(file)} is not a conformance report (reports/report.schema.json: ${terminalSafe(`${first?.message ?? 'invalid'}${named}${where}`).slice(0, 300)})`,
    );
  }
  return value;
}

/** Written through no symbolic link (O_NOFOLLOW): the path is the user's, a link planted there is refused. */
function writeHtml(file: string, html: string): void {
  let fd: number;
  try {
    fd = openSync(file, constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | constants.O_NOFOLLOW, 0o644);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new BadInput(
      `--html ${shown(file)}: ${code === 'ELOOP' ? 'is a symbolic link; refusing to write through it' : `cannot write (${code ?? 'error'})`}`,
    );
  }
  try {
    const bytes = Buffer.from(html, 'utf8');
    for (let at = 0; at < bytes.length; ) at += writeSync(fd, bytes, at);
  } finally {
    closeSync(fd);
  }
}

function main(argv: string[]): number {
  const parsed = commandArgs(
    {
      args: argv,
      strict: true,
      allowPositionals: true,
      options: { html: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    },
    DIFF_USAGE,
    BadInput,
  );
  if (!parsed) return 0;
  const [fileA, fileB, ...extra] = parsed.positionals;
  if (fileA === undefined || fileB === undefined || extra.length)
    throw new BadInput(`takes two reports, got ${parsed.positionals.length} (see --help)`);
  const a = loadReport(fileA);
  const b = loadReport(fileB);
  const refused = incomparable(a, b);
  if (refused) throw new BadInput(terminalSafe(refused));
  const comparison = compareReports(a, b, { a: fileA, b: fileB });
  // The page first: a destination that cannot be written is bad input, reported before any output.
  if (parsed.values.html !== undefined) writeHtml(parsed.values.html, diffHtml(comparison));
  process.stdout.write(diffText(comparison));
  if (parsed.values.html !== undefined) process.stdout.write(`html: ${terminalSafe(parsed.values.html)}\n`);
  if (comparison.statuses.length) return DIFF_EXIT.statuses;
  return comparison.observations.length ? DIFF_EXIT.observationsOnly : DIFF_EXIT.agree;
}

try {
  process.exitCode = main(process.argv.slice(2));
} catch (e) {
  const message =
    e instanceof BadInput ? e.message : `internal error: ${terminalSafe((e as Error)?.message ?? String(e))}`;
  process.stderr.write(`conformance diff: ${message}\n`);
  process.exitCode = DIFF_EXIT.badInput;
}
