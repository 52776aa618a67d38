/**
 * bench/RESULTS.md, the bench's results file: the one place of the repository where measured figures
 * and their dates belong (the README states what the suite does, and points here for how fast and
 * against whom). `npm run bench` writes it when it ends, from the same model and in the same words as
 * the tables it prints; its header says when, by which command, at which commit and on which machine
 * (CPU model, cores, memory, Node.js) the figures were measured. Each bench replaces the file whole;
 * git keeps the earlier ones.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BenchResults } from './results.ts';
import { ROOT } from './root.ts';
import { renderMarkdown } from './table.ts';

/** Where `npm run bench` writes its results file unless `--results FILE` says otherwise. */
export const RESULTS_FILE = join(ROOT, 'bench', 'RESULTS.md');

/** The results file's text: a title, what it is, then the header and every table of the bench. */
export function resultsFile(r: BenchResults): string {
  return [
    '# Bench results',
    '',
    'Written by `npm run bench` (bench/bench.ts) when it ends: the tables it printed, with when, at which commit and on which machine they were measured. Each bench replaces this file whole; its earlier versions are in git. What each row measures: the README, "How it compares", and bench/bench.ts.',
    '',
    renderMarkdown(r),
  ].join('\n');
}

/** Writes the results file (bench/RESULTS.md by default). */
export function writeResultsFile(r: BenchResults, path: string = RESULTS_FILE): void {
  writeFileSync(path, resultsFile(r));
}
