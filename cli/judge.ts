/**
 * `conformance judge DIR/evidence.har [--report-dir DIR]` (in a clone: `npm run conformance:judge --`):
 * the run the recording was made by, judged again with no network: the same checks, seed and options,
 * each request answered from the recording (cli/offline-judge.ts). A request it does not hold leaves
 * its check not judged ("not in the recording"), never failed (rule "Verdicts in both directions").
 *
 * Exit code: the verdict's (EXIT_CODE), 2 on bad input (rule "Bad input exits 2").
 */
import { terminalSafe } from '../core/text/terminal-text.ts';
import { EXIT_CODE, verdictLine } from '../reports/format.ts';
import { commandArgs } from './args.ts';
import { judgeRecording, loadRecording, RecordingError, runRecordingCommand } from './offline-judge.ts';
import { commandLine } from './suite-files.ts';

export const JUDGE_USAGE = `usage: ${commandLine('judge')} DIR/evidence.har [--report-dir DIR]

Judges a run again from its recording (the evidence.har every run writes), offline: the same checks,
seed and options, each request answered from the recording. Prints the verdict and each requirement's
status; exit code as a run's (0 conformant, 1 non-conformant, 2 incomplete or bad input).

  --report-dir DIR   also write the offline run's report files there
  --help             this text`;

async function main(argv: string[]): Promise<number> {
  const parsed = commandArgs(
    {
      args: argv,
      strict: true,
      allowPositionals: true,
      options: { 'report-dir': { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    },
    JUDGE_USAGE,
    RecordingError,
  );
  if (!parsed) return 0;
  const [file, ...extra] = parsed.positionals;
  if (file === undefined || extra.length)
    throw new RecordingError(`takes one recording, got ${parsed.positionals.length} (see --help)`);
  const report = await judgeRecording(loadRecording(file), parsed.values['report-dir']);
  const lines = report.requirements.map((r) => `${r.status.padEnd(12)} ${r.id}`);
  // Closed by the verdict line in the main command's words (reports/console-summary.ts), so CI logs read alike.
  process.stdout.write(`${[...lines, terminalSafe(`verdict: ${verdictLine(report)}`)].join('\n')}\n`);
  return EXIT_CODE[report.verdict];
}

process.exitCode = await runRecordingCommand('judge', () => main(process.argv.slice(2)));
