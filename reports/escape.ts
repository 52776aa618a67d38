/**
 * Escaping for the text formats of the report. Bodies, headers and messages come from an untrusted
 * target: every value that is not a literal of the writer goes through one of these. Control
 * characters (C0 but line feed, C1, bidirectional controls) are shown escaped (`\x1b`, `\r`,
 * `\u202e`) as on the console (core/text/terminal-text.ts): junit.xml is printed by CI consoles, and a
 * reader of report.html should see what the target sent rather than have it reorder the text.
 */
import { terminalSafe } from '../core/text/terminal-text.ts';

// XML 1.0 allows only tab, LF, CR and the characters from U+0020 on (no lone surrogates, no U+FFFE/F);
// what terminalSafe leaves of these (lone surrogates, U+FFFE/F) is replaced.
const XML_INVALID =
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Untrusted text with its control characters shown escaped and nothing XML 1.0 forbids. */
function visible(value: unknown, keepNewlines: boolean): string {
  return terminalSafe(String(value), { keepNewlines }).replace(XML_INVALID, '\uFFFD');
}

/** Text for XML or HTML content and attribute values (both quote styles safe). */
export function esc(value: unknown): string {
  return visible(value, true).replace(/[&<>"']/g, (c) => ENTITIES[c]!);
}

/** Text for an XML attribute that must stay on one logical line (newlines kept as character references; CR and tab are shown escaped by esc). */
export function escAttr(value: unknown): string {
  return esc(value).replace(/\n/g, '&#10;');
}

/**
 * Untrusted text inline in Markdown (GitHub flavour): no raw HTML, no links or emphasis, no table
 * breaks. Every character Markdown could act on is backslash-escaped; newlines become spaces.
 */
export function mdText(value: unknown): string {
  return visible(String(value).replace(/\s+/g, ' '), false).replace(/[\\`*_{}[\]()<>#+!|~&]/g, (c) =>
    c === '<' ? '&lt;' : c === '>' ? '&gt;' : c === '&' ? '&amp;' : `\\${c}`,
  );
}

/** A Markdown code span that holds any text (a fence longer than any backtick run inside it). */
export function mdCode(value: unknown): string {
  const s = visible(String(value).replace(/\s+/g, ' '), false);
  const longest = Math.max(0, ...[...s.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  const pad = s.startsWith('`') || s.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${s}${pad}${fence}`;
}
