import { expect, test } from '@playwright/test';
import {
  catalogueQuotes,
  documentAbsentReason,
  documentDigest,
  findServiceDocument,
  makeGrounding,
  normaliseWhitespace,
  quoteProblem,
  readGrounding,
} from '../spec/document.ts';

// The repository carries the document's quotes, not the document: spec/grounding.json records the
// digest of the document every quote was found in (`npm run ground`). Without the document these
// tests still know each quote was checked; with it, they check again and that the record is current.

test('every quote of the catalogue and the ledger was found in the document the record names', () => {
  const recorded = new Set(readGrounding().quotes.map((q) => `${q.section} ${q.quote}`));
  const unchecked = catalogueQuotes()
    .filter((q) => !recorded.has(`${q.section} ${normaliseWhitespace(q.quote)}`))
    .map((q) => `${q.by}: ${q.section} ${JSON.stringify(q.quote)}`);
  expect(unchecked, 'quotes never checked against the document: run npm run ground where the document is').toEqual([]);
});

test('the record holds no quote the catalogue and ledger no longer make', () => {
  const made = new Set(catalogueQuotes().map((q) => `${q.section} ${normaliseWhitespace(q.quote)}`));
  expect(readGrounding().quotes.filter((q) => !made.has(`${q.section} ${q.quote}`))).toEqual([]);
});

test('the grounding record is the one the document at hand makes (digest and quotes)', () => {
  const doc = findServiceDocument();
  test.skip(doc === undefined, documentAbsentReason());
  const problems = catalogueQuotes()
    .map((q) => [q.by, quoteProblem(doc!, q.section, q.quote)] as const)
    .filter(([, p]) => p !== undefined);
  expect(problems).toEqual([]);
  expect(readGrounding(), 'spec/grounding.json is stale: run npm run ground').toEqual(
    makeGrounding(doc!, catalogueQuotes()),
  );
  expect(documentDigest(doc!)).toBe(readGrounding().document.sha256);
});
