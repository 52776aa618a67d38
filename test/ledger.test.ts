import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { catalogue } from '../core/document/catalogue.ts';
import { documentAbsentReason, findServiceDocument, quoteProblem } from '../spec/document.ts';
import { FAULTS } from '../reference/faults/index.ts';
import { CONFORMANT_VARIANTS } from '../reference/variants.ts';
import { LEDGER as ledger } from './support/ledger.ts';

// One ledger, no contradictions (spec/readings.yaml `decisions`): a question the document's words answer
// once is applied alike by every requirement it touches. Each decision's behaviours run on the reference
// in the self-test's own runs (test/self-test.test.ts runs every fault and every variant): what it allows
// is CONFORMANT with none of its requirements failed (the self-test holds each variant's runs to the
// decisions that allow it, test/support/ledger.ts), what it forbids is failed by the one requirement it
// names and by no other of the decision (one behaviour, two verdicts: held below on the declarations
// the self-test's exactness holds each fault's run to); and the words of an earlier, contradicting
// answer are found nowhere in spec/ or suites/.
test.describe.configure({ mode: 'parallel' });

const decisions = ledger.decisions;
const byId = catalogue().byId;

test('every decision is whole: its words, its requirements, a behaviour each way that exists', () => {
  const ids = decisions.map((d) => d.id);
  expect(ids.length - new Set(ids).size, 'duplicate decision ids').toBe(0);
  expect(ids.length).toBeGreaterThanOrEqual(7);
  for (const d of decisions) {
    expect(d.id, d.id).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
    expect(d.question.length > 10 && d.decision.length > 40, `${d.id}: question and decision`).toBe(true);
    for (const id of d.requirements) expect(byId.has(id), `${d.id}: unknown requirement ${id}`).toBe(true);
    expect(d.conform.length + d.fail.length, `${d.id}: no behaviour shows it`).toBeGreaterThan(0);
    for (const v of d.conform)
      expect(
        CONFORMANT_VARIANTS.some((x) => x.name === v),
        `${d.id}: variant ${v}`,
      ).toBe(true);
    for (const f of d.fail) {
      expect(d.requirements, `${d.id}: ${f.fault} fails a requirement the decision names`).toContain(f.requirement);
      expect(byId.get(f.requirement)?.level, `${d.id}: ${f.requirement} fails a run`).toBe('MUST');
      expect(
        FAULTS.find((x) => x.name === f.fault)?.breaks ?? [],
        `${d.id}: fault ${f.fault} declares ${f.requirement}`,
      ).toContain(f.requirement);
    }
  }
});

test("every decision quotes the document's own words, in the section it names", () => {
  const doc = findServiceDocument();
  test.skip(doc === undefined, documentAbsentReason());
  const problems = decisions
    .flatMap((d) => d.words.map((w) => [d.id, w.section, quoteProblem(doc!, w.section, w.quote)] as const))
    .filter(([, , p]) => p !== undefined);
  expect(problems).toEqual([]);
});

test('one behaviour, one verdict across the ledger: a variant is only ever allowed, a fault only ever forbidden', () => {
  const allowed = new Map<string, string>();
  const forbidden = new Map<string, string>();
  for (const r of ledger.readings) {
    if (r.variant) allowed.set(r.variant, `reading ${r.id}`);
    if (r.fault) forbidden.set(r.fault, `reading ${r.id}`);
  }
  for (const d of decisions) {
    for (const v of d.conform) allowed.set(v, `decision ${d.id}`);
    for (const f of d.fail) forbidden.set(f.fault, `decision ${d.id}`);
  }
  const variantNames = new Set(CONFORMANT_VARIANTS.map((v) => v.name));
  const faultNames = new Set(FAULTS.map((f) => f.name));
  // A name both allowed and forbidden, or a variant listed as forbidden (a fault as allowed), is one behaviour with two verdicts.
  expect([...allowed.keys()].filter((n) => forbidden.has(n) || faultNames.has(n))).toEqual([]);
  expect([...forbidden.keys()].filter((n) => variantNames.has(n))).toEqual([]);
});

/** Text of the files under `dir` whose name ends with one of `exts`. */
function sources(dir: URL, exts: readonly string[]): Array<{ file: string; text: string }> {
  const walk = (d: string): string[] =>
    readdirSync(d).flatMap((f) => {
      const p = join(d, f);
      return statSync(p).isDirectory() ? walk(p) : exts.some((e) => p.endsWith(e)) ? [p] : [];
    });
  return walk(dir.pathname).map((file) => ({ file, text: readFileSync(file, 'utf8') }));
}

/** Comment markers and line breaks folded away, so a phrase wrapped over two comment lines is still one phrase. */
const folded = (text: string) => text.replace(/\n\s*(\/\/+|\*|#)?\s*/g, ' ').replace(/\s+/g, ' ');

test('the words of a retired answer appear nowhere in spec/ or suites/ (outside the decision that retires them)', () => {
  const files = [
    ...sources(new URL('../spec/', import.meta.url), ['.yaml']),
    ...sources(new URL('../suites/', import.meta.url), ['.ts']),
  ];
  const found: string[] = [];
  for (const d of decisions) {
    for (const phrase of d.retired) {
      for (const { file, text } of files) {
        // The decision's own `retired:` line names the phrase; nothing else may.
        const body = file.endsWith('readings.yaml') ? text.replace(/^ {4}retired: .*$/gm, '') : text;
        if (folded(body).includes(phrase))
          found.push(
            `${d.id}: "${phrase}" in ${file.slice(file.indexOf('/spec/') >= 0 ? file.indexOf('/spec/') + 1 : file.indexOf('/suites/') + 1)}`,
          );
      }
    }
  }
  expect(found).toEqual([]);
});

test('a fault a decision forbids declares no other requirement of the decision: failed by the one it names, by no other', () => {
  // The self-test fails every fault that does not fail exactly its `breaks` and `alsoFails` (test/support/exactness.ts
  // judgeFault): a requirement of the decision outside `breaks` may fail the fault's run only by a declaration in `alsoFails`.
  const twice: string[] = [];
  for (const d of decisions)
    for (const { fault } of d.fail)
      for (const also of FAULTS.find((f) => f.name === fault)?.alsoFails ?? [])
        if (d.requirements.includes(also.id)) twice.push(`${d.id}: ${fault} declares ${also.id} in alsoFails`);
  expect(twice).toEqual([]);
});
