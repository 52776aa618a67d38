/**
 * `conformance verify R/report.json R/evidence.har` (in a clone: `npm run conformance:verify --`):
 * whether a report and its recording belong together (cli/verify-recording.ts) and the recording,
 * judged again offline, gives the report's verdict and statuses.
 *
 * Exit code: 0 all agree, 1 they do not (each disagreement one line), 2 bad input (rule "Bad input exits 2").
 */
import { terminalSafe } from '../core/text/terminal-text.ts';
import { commandArgs } from './args.ts';
import { loadRecording, RecordingError, runRecordingCommand } from './offline-judge.ts';
import { commandLine } from './suite-files.ts';
import { disagreements, loadReportFile } from './verify-recording.ts';

export const VERIFY_USAGE = `usage: ${commandLine('verify')} R/report.json R/evidence.har

Checks that a report and a recording belong together (the recording's entries, the run, the suite's
version, the service document) and that the recording, judged again offline, gives the report's verdict
and every requirement's status. Exit code: 0 all agree, 1 they do not, 2 bad input.`;

async function main(argv: string[]): Promise<number> {
  const parsed = commandArgs(
    { args: argv, strict: true, allowPositionals: true, options: { help: { type: 'boolean', short: 'h' } } },
    VERIFY_USAGE,
    RecordingError,
  );
  if (!parsed) return 0;
  const [reportFile, harFile, ...extra] = parsed.positionals;
  if (reportFile === undefined || harFile === undefined || extra.length)
    throw new RecordingError(`takes a report and a recording, got ${parsed.positionals.length} files (see --help)`);
  const found = await disagreements(loadReportFile(reportFile), loadRecording(harFile));
  process.stdout.write(
    found.length ? `${found.map((l) => terminalSafe(l)).join('\n')}\n` : 'the report and the recording agree\n',
  );
  return found.length ? 1 : 0;
}

process.exitCode = await runRecordingCommand('verify', () => main(process.argv.slice(2)));
