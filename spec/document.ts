import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * The service document, the suite's only authority, and where its words are. It sits beside the
 * repository (`../shared/seed/service-interface.md` from the repository root), as a CI clone has it.
 * Requirements (spec/requirements.yaml) and readings (spec/readings.yaml) quote it verbatim; these
 * helpers say whether a quote is really there, in the section it names.
 */
export const DOCUMENT_PATH = fileURLToPath(new URL('../../shared/seed/service-interface.md', import.meta.url));

/** The document's text; throws with its expected path when it is missing (a quote cannot be checked without it). */
export function serviceDocument(path = DOCUMENT_PATH): string {
  if (!existsSync(path)) throw new Error(`service document not found at ${path} (a clone needs shared/seed/ beside it)`);
  return readFileSync(path, 'utf8');
}

/** Runs of whitespace (line breaks, table padding) made one space: the only difference a quote may have. */
export function normaliseWhitespace(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}

/**
 * The text of section `number` ("4.1", "7", "1"): from its heading to the next heading of the same or
 * a higher level, so "7" includes 7.1 to 7.3. Undefined when the document has no such heading.
 */
export function sectionText(doc: string, number: string): string | undefined {
  const headings = [...doc.matchAll(/^(#{2,3}) (\d+(?:\.\d+)?)\.? /gm)].map((m) => ({ at: m.index ?? 0, depth: m[1]!.length, number: m[2]! }));
  const i = headings.findIndex((h) => h.number === number);
  if (i < 0) return undefined;
  const h = headings[i]!;
  const next = headings.slice(i + 1).find((x) => x.depth <= h.depth);
  return doc.slice(h.at, next?.at ?? doc.length);
}

/** Why `quote` is not the document's own words in `section`, or undefined when it is (whitespace normalised only). */
export function quoteProblem(doc: string, section: string, quote: string): string | undefined {
  const text = sectionText(doc, section);
  if (text === undefined) return `the document has no section ${section}`;
  if (normaliseWhitespace(quote).length < 8) return `quote ${JSON.stringify(quote)} is too short to rest on`;
  if (!normaliseWhitespace(text).includes(normaliseWhitespace(quote))) {
    return normaliseWhitespace(doc).includes(normaliseWhitespace(quote))
      ? `quote ${JSON.stringify(quote)} is in the document but not in section ${section}`
      : `quote ${JSON.stringify(quote)} is not in the document`;
  }
  return undefined;
}
