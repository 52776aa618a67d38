#!/usr/bin/env node
/**
 * The `conformance` command of the package (package.json `bin`): `conformance reference`,
 * `conformance diff` and `conformance merge` start their own programs; anything else is a run of the
 * suite (cli/conformance.ts), so `npx conformance --target FILE` is `npm run conformance -- --target FILE`.
 *
 * Each program reads its options from `process.argv.slice(2)` and runs when imported, so the
 * subcommand's name is taken out of argv before its module is loaded, and only that module is loaded:
 * `conformance diff` does not pay for the suite's start-up.
 */

import './compile-cache.ts';
import './jit-tiering.ts';

const SUBCOMMANDS: Record<string, { summary: string; load: () => Promise<unknown> }> = {
  reference: {
    summary: 'start the reference implementation (conformance reference --help)',
    load: () => import('../reference/main.ts'),
  },
  diff: {
    summary: 'compare two reports: conformance diff A/report.json B/report.json (--help)',
    load: () => import('./diff.ts'),
  },
  judge: {
    summary: 'judge a run again from its recording, offline: conformance judge DIR/evidence.har (--help)',
    load: () => import('./judge.ts'),
  },
  verify: {
    summary:
      'check a report and its recording belong together and judge it again: conformance verify R/report.json R/evidence.har',
    load: () => import('./verify.ts'),
  },
  merge: {
    summary: 'merge the reports of a run split with --shard (conformance merge --help)',
    load: () => import('./merge.ts'),
  },
};

const first = process.argv[2];
const sub = first !== undefined && Object.hasOwn(SUBCOMMANDS, first) ? SUBCOMMANDS[first] : undefined;
if (sub) {
  process.argv.splice(2, 1);
  await sub.load();
} else {
  if (first === '--help' || first === '-h') {
    const width = Math.max(...Object.keys(SUBCOMMANDS).map((k) => k.length));
    process.stdout.write(
      [
        'usage: conformance [options]          run the suite (options below)',
        ...Object.entries(SUBCOMMANDS).map(([name, s]) => `       conformance ${name.padEnd(width)}  ${s.summary}`),
        '',
        '',
      ].join('\n'),
    );
  }
  await import('./conformance.ts');
}
