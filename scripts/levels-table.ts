/**
 * The table of contested levels (spec/LEVELS.md), from spec/readings.yaml `levels` (one table, one source):
 * `npx tsx scripts/levels-table.ts` prints it; test/readings.test.ts finds it in spec/LEVELS.md as printed.
 */
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';

export interface LevelDecision {
  requirement: string;
  level: 'MUST' | 'SHOULD';
  section: string;
  words: string;
  why: string;
}

export function levelDecisions(): LevelDecision[] {
  return (parse(readFileSync(new URL('../spec/readings.yaml', import.meta.url), 'utf8')) as { levels: LevelDecision[] })
    .levels;
}

const cell = (s: string) => s.replace(/\s+/g, ' ').replaceAll('|', '\\|');

export function levelsTable(levels: readonly LevelDecision[] = levelDecisions()): string {
  const rows = levels.map(
    (l) => `| \`${l.requirement}\` | ${l.level} | ${l.section} | ${cell(`"${l.words}"`)} | ${cell(l.why)} |`,
  );
  return ['| requirement | level | section | the words | why this level |', '|---|---|---|---|---|', ...rows].join(
    '\n',
  );
}

if (import.meta.url === `file://${process.argv[1]}`) process.stdout.write(`${levelsTable()}\n`);
