import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { parse } from 'yaml';
import { catalogue } from '../core/document/catalogue.ts';
import { documentAbsentReason, findServiceDocument, quoteProblem } from '../spec/document.ts';
import { FAULTS } from '../reference/faults/index.ts';
import { CONFORMANT_VARIANTS, READING_SWITCHES } from '../reference/variants.ts';

// spec/readings.yaml is the ledger of the points where the document's words admit more than one
// reading. These tests keep it honest: its words are the document's, each faithful reading has a
// conformant variant the self-test runs, each unfaithful one a fault, and every variant is accounted for.

interface Reading {
  id: string;
  section: string;
  words: string;
  reading: string;
  verdict: 'conform' | 'observe' | 'fail';
  why: string;
  variant?: string;
  fault?: string;
  requirements: string[];
  should?: string[];
  observe?: string[];
}

const ledger = parse(readFileSync(new URL('../spec/readings.yaml', import.meta.url), 'utf8')) as {
  readings: Reading[];
};
const readings = ledger.readings;

test('every reading is fully described, with a unique id', () => {
  const ids = readings.map((r) => r.id);
  expect(ids.length - new Set(ids).size, 'duplicate reading ids').toBe(0);
  for (const r of readings) {
    expect(r.id, r.id).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
    expect(['conform', 'observe', 'fail'], r.id).toContain(r.verdict);
    expect(r.section, `${r.id}: one section`).toMatch(/^[1-9](\.[1-9])?$/);
    for (const field of ['words', 'reading', 'why'] as const)
      expect(typeof r[field] === 'string' && r[field].length > 5, `${r.id}.${field}`).toBe(true);
    expect(r.requirements.length, `${r.id}: requirements`).toBeGreaterThan(0);
  }
});

test("every reading quotes the document's own words, in the section it names", () => {
  const doc = findServiceDocument()!;
  test.skip(doc === undefined, documentAbsentReason());
  const problems = readings
    .map((r) => [r.id, quoteProblem(doc, r.section, r.words)] as const)
    .filter(([, p]) => p !== undefined);
  expect(problems).toEqual([]);
});

test('a faithful reading names a conformant variant, an unfaithful one a fault', () => {
  const variants = new Set(CONFORMANT_VARIANTS.map((v) => v.name));
  const faults = new Set(FAULTS.map((f) => f.name));
  for (const r of readings) {
    if (r.verdict === 'fail') {
      expect(r.variant, `${r.id}: a reading that fails has no conformant variant`).toBeUndefined();
      expect(faults.has(r.fault ?? ''), `${r.id}: fault ${r.fault} is not in reference/faults`).toBe(true);
    } else {
      expect(r.fault, `${r.id}: a faithful reading has no fault`).toBeUndefined();
      expect(variants.has(r.variant ?? ''), `${r.id}: variant ${r.variant} is not in reference/variants.ts`).toBe(true);
    }
  }
  // At least 15 readings with a conformant variant of their own.
  const own = new Set(readings.filter((r) => r.verdict !== 'fail').map((r) => r.variant));
  expect(own.size).toBeGreaterThanOrEqual(15);
});

test('every conformant variant is a reading of the ledger, and every reading switch a variant of its own', () => {
  const named = new Set(readings.map((r) => r.variant).filter(Boolean));
  const unledgered = CONFORMANT_VARIANTS.map((v) => v.name).filter((n) => !named.has(n));
  expect(unledgered, 'variants that no reading of spec/readings.yaml names').toEqual([]);
  for (const s of READING_SWITCHES) {
    const using = CONFORMANT_VARIANTS.filter((v) => v.options.readings?.includes(s)).map((v) => v.name);
    expect(using, `reading switch ${s}`).toEqual([s]);
  }
});

test('every reading switch changes something: the reference asks for it by name', () => {
  // A switch no route reads would be a variant identical to the reference: accepted and ignored.
  const files = (dir: string): string[] =>
    readdirSync(dir).flatMap((f) => {
      const p = join(dir, f);
      return statSync(p).isDirectory() ? files(p) : p.endsWith('.ts') ? [p] : [];
    });
  const source = files(new URL('../reference', import.meta.url).pathname)
    .map((f) => readFileSync(f, 'utf8'))
    .join('\n');
  for (const s of READING_SWITCHES)
    expect(source.includes(`hasReading(opts, '${s}')`) || source.includes(`hasReading(ctx.opts, '${s}')`), s).toBe(
      true,
    );
});

test('the requirements a reading names exist, at the level its verdict says', () => {
  const byId = catalogue().byId;
  for (const r of readings) {
    for (const id of [...r.requirements, ...(r.should ?? []), ...(r.observe ?? [])])
      expect(byId.has(id), `${r.id}: unknown requirement ${id}`).toBe(true);
    // A reading the suite reports under a SHOULD fails no MUST through it; an observed one only shows it.
    for (const id of r.should ?? []) expect(byId.get(id)?.level, `${r.id}: ${id}`).toBe('SHOULD');
    for (const id of r.observe ?? []) expect(byId.get(id)?.level, `${r.id}: ${id}`).toBe('UNSPECIFIED');
    if (r.verdict === 'observe')
      expect(
        r.observe?.length ?? 0,
        `${r.id}: an observed reading names the point it is observed under`,
      ).toBeGreaterThan(0);
    // A fault proves an unfaithful reading by failing a MUST it names.
    if (r.verdict === 'fail') {
      const fault = FAULTS.find((f) => f.name === r.fault)!;
      expect(
        fault.breaks.filter((id) => r.requirements.includes(id) && byId.get(id)?.level === 'MUST'),
        `${r.id}: ${r.fault} breaks a MUST of the reading`,
      ).not.toEqual([]);
    }
  }
});

// Every contested level decided in one table, with the words and the reason, the same in
// spec/readings.yaml and the README.
test('every SHOULD requirement and every contested MUST has its decision in the levels ledger, at the catalogue level', async () => {
  const { levelDecisions } = await import('../scripts/levels-table.ts');
  const levels = levelDecisions();
  const byId = catalogue().byId;
  for (const l of levels) {
    expect(byId.get(l.requirement)?.level, l.requirement).toBe(l.level);
    expect(l.why.length, `${l.requirement}: why`).toBeGreaterThan(20);
  }
  const decided = new Set(levels.map((l) => l.requirement));
  expect(levels.length - decided.size, 'one decision per requirement').toBe(0);
  expect(
    catalogue()
      .requirements.filter((r) => r.level === 'SHOULD' && !decided.has(r.id))
      .map((r) => r.id),
  ).toEqual([]);
});

test("spec/LEVELS.md's table of contested levels is the ledger's, as the script prints it, and the README points there", async () => {
  const { levelsTable } = await import('../scripts/levels-table.ts');
  const levels = readFileSync(new URL('../spec/LEVELS.md', import.meta.url), 'utf8');
  expect(levels.includes(levelsTable()), 'run npx tsx scripts/levels-table.ts and paste it into spec/LEVELS.md').toBe(
    true,
  );
  const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
  expect(readme).toContain('[`spec/LEVELS.md`](spec/LEVELS.md)');
});
