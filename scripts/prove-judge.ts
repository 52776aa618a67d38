/**
 * `npm run prove:judge [-- --seeds 1,7,1234] [--only WORD]`: every target of the catalogue (the reference,
 * every fault, every conformant variant) on each seed, run live with its recording and judged again
 * offline as `conformance judge` judges it, its report and recording checked as `conformance verify` checks
 * them, untouched and with one byte changed (test/support/judge-again.ts); prints each disagreement, then
 * the runs, the disagreements and the CPU seconds. Exit code 0 when every offline judgement is the live
 * run's, 1 otherwise, 2 on a bad option. test/judge-again.test.ts holds a part of this matrix in `npm test`.
 */
import { parseArgs } from 'node:util';
import { JUDGE_SEEDS, judgeAgain, judgeCases } from '../test/support/judge-again.ts';

function options(argv: string[]): { seeds: number[]; only?: string } {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: { seeds: { type: 'string' }, only: { type: 'string' } },
  });
  const seeds = values.seeds === undefined ? [...JUDGE_SEEDS] : values.seeds.split(',').map(Number);
  if (seeds.length === 0 || seeds.some((s) => !Number.isSafeInteger(s) || s < 0))
    throw new Error(`--seeds takes whole numbers separated by commas, got ${JSON.stringify(values.seeds)}`);
  return { seeds, ...(values.only !== undefined ? { only: values.only } : {}) };
}

async function main(argv: string[]): Promise<number> {
  let opts;
  try {
    opts = options(argv);
  } catch (e) {
    process.stderr.write(`prove:judge: ${(e as Error).message}\n`);
    return 2;
  }
  const cpuBefore = process.cpuUsage();
  const startedAt = Date.now();
  let runs = 0;
  let disagreeing = 0;
  const refused: string[] = [];
  for (const c of judgeCases().filter((c) => opts.only === undefined || c.name.includes(opts.only))) {
    for (const seed of opts.seeds) {
      const judged = await judgeAgain(c, seed);
      if (judged.runError !== undefined) {
        refused.push(`${c.name} --seed ${seed}`);
        continue;
      }
      runs++;
      if (judged.differences.length === 0) continue;
      disagreeing++;
      process.stdout.write(`${c.name} --seed ${seed}:\n${judged.differences.map((d) => `  ${d}`).join('\n')}\n`);
    }
  }
  const cpu = process.cpuUsage(cpuBefore);
  process.stdout.write(
    `${[
      `${runs} runs judged again offline (seeds ${opts.seeds.join(', ')}): ${disagreeing} disagree with the live run`,
      ...(refused.length
        ? [`${refused.length} runs could not be made (exit 2, no recording): ${refused.join('; ')}`]
        : []),
      `${((cpu.user + cpu.system) / 1e6).toFixed(0)} CPU seconds, ${((Date.now() - startedAt) / 1000).toFixed(0)} s`,
    ].join('\n')}\n`,
  );
  return disagreeing === 0 ? 0 : 1;
}

process.exitCode = await main(process.argv.slice(2));
