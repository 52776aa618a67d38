/**
 * `npm run ground`: checks every quote of spec/requirements.yaml and spec/readings.yaml against the
 * service document (CONFORMANCE_SERVICE_DOCUMENT, else ../shared/seed/service-interface.md) and, when
 * each one is the document's own words, writes spec/grounding.json: the document's digest and the
 * quotes found in it. A fresh clone's tests then know every quote was checked, without the document.
 */
import { writeFileSync } from 'node:fs';
import {
  catalogueQuotes,
  documentAbsentReason,
  findServiceDocument,
  GROUNDING_URL,
  makeGrounding,
  quoteProblem,
} from '../spec/document.ts';

const doc = findServiceDocument();
if (doc === undefined) {
  process.stderr.write(`ground: ${documentAbsentReason()}\n`);
  process.exit(2);
}
const quotes = catalogueQuotes();
const problems = quotes
  .map((q) => ({ q, problem: quoteProblem(doc, q.section, q.quote) }))
  .filter((x) => x.problem !== undefined);
if (problems.length) {
  for (const { q, problem } of problems) process.stderr.write(`ground: ${q.by}: ${problem}\n`);
  process.exit(1);
}
const grounding = makeGrounding(doc, quotes);
writeFileSync(GROUNDING_URL, `${JSON.stringify(grounding, null, 2)}\n`);
process.stdout.write(
  `ground: ${grounding.quotes.length} quotes found in the document (sha256 ${grounding.document.sha256.slice(0, 12)}…); spec/grounding.json written\n`,
);
