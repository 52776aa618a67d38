import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

/**
 * The service document, the suite's only authority, and where its words are. The repository does
 * not carry the document: it carries its quotes (`basis` in spec/requirements.yaml, `words` in
 * spec/readings.yaml) and spec/grounding.json, the digest of the document they were last checked
 * against. Where the document is at hand (CONFORMANCE_SERVICE_DOCUMENT, else
 * `../shared/seed/service-interface.md` beside a clone), the tests check every quote in it again.
 */
export const DOCUMENT_ENV = 'CONFORMANCE_SERVICE_DOCUMENT';
export const DEFAULT_DOCUMENT_PATH = fileURLToPath(new URL('../../shared/seed/service-interface.md', import.meta.url));

/** Where the document is looked for: the setting, else the path beside a clone. */
export function documentPath(): string {
  return process.env[DOCUMENT_ENV] || DEFAULT_DOCUMENT_PATH;
}

/** The document's text, or undefined when it is not at hand (a fresh clone has no ../shared). */
export function findServiceDocument(path = documentPath()): string | undefined {
  return existsSync(path) ? readFileSync(path, 'utf8') : undefined;
}

/** Why a document-reading test is skipped: named, so the skip is never mistaken for a pass. */
export function documentAbsentReason(path = documentPath()): string {
  return `service document not found at ${path} (set ${DOCUMENT_ENV} to its path); the quotes are checked against spec/grounding.json instead`;
}

/** The digest spec/grounding.json records: sha256 of the document's bytes. */
export function documentDigest(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
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
  const headings = [...doc.matchAll(/^(#{2,3}) (\d+(?:\.\d+)?)\.? /gm)].map((m) => ({
    at: m.index ?? 0,
    depth: m[1]!.length,
    number: m[2]!,
  }));
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

/** One quote the catalogue or the ledger rests on, with the section it names. */
export interface Quote {
  section: string;
  quote: string;
  /** Who quotes it: a requirement id or `reading:<id>`. */
  by: string;
}

/** Every quote of spec/requirements.yaml (`basis`) and spec/readings.yaml (`words`), in file order. */
export function catalogueQuotes(): Quote[] {
  const read = (name: string): unknown => parse(readFileSync(new URL(`./${name}`, import.meta.url), 'utf8'));
  const requirements = (
    read('requirements.yaml') as {
      requirements: Array<{ id: string; basis?: Array<{ section: string; quote: string }> }>;
    }
  ).requirements;
  const ledger = read('readings.yaml') as {
    readings: Array<{ id: string; section: string; words: string }>;
    levels?: Array<{ requirement: string; section: string; words: string }>;
    decisions?: Array<{ id: string; words: Array<{ section: string; quote: string }> }>;
  };
  return [
    ...requirements.flatMap((r) =>
      (r.basis ?? []).map((b) => ({ section: String(b.section), quote: String(b.quote), by: r.id })),
    ),
    ...ledger.readings.map((r) => ({ section: String(r.section), quote: String(r.words), by: `reading:${r.id}` })),
    ...(ledger.levels ?? []).map((l) => ({
      section: String(l.section),
      quote: String(l.words),
      by: `level:${l.requirement}`,
    })),
    ...(ledger.decisions ?? []).flatMap((d) =>
      d.words.map((w) => ({ section: String(w.section), quote: String(w.quote), by: `decision:${d.id}` })),
    ),
  ];
}

/** spec/grounding.json: the document's digest and the quotes found in it when it was last checked. */
export interface Grounding {
  document: { sha256: string; bytes: number };
  quotes: Array<{ section: string; quote: string }>;
}

export const GROUNDING_URL = new URL('./grounding.json', import.meta.url);

export function readGrounding(): Grounding {
  return JSON.parse(readFileSync(GROUNDING_URL, 'utf8')) as Grounding;
}

/** The record made from the document and the quotes: distinct (section, quote) pairs, normalised and sorted. */
export function makeGrounding(doc: string, quotes: readonly Quote[]): Grounding {
  const pairs = new Map<string, { section: string; quote: string }>();
  for (const q of quotes) {
    const p = { section: q.section, quote: normaliseWhitespace(q.quote) };
    pairs.set(`${p.section}\u0000${p.quote}`, p);
  }
  const sorted = [...pairs.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, p]) => p);
  return { document: { sha256: documentDigest(doc), bytes: Buffer.byteLength(doc, 'utf8') }, quotes: sorted };
}
