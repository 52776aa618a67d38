/** badge.svg: `conformance 1.0.0 | conformant` (green), `non-conformant` (red) or `error` (grey). */
import type { ConformanceReport } from './model.ts';
import { esc } from './escape.ts';

const COLOUR: Record<ConformanceReport['verdict'], string> = {
  conformant: '#2e8540',
  'non-conformant': '#d73a49',
  error: '#6a737d',
  incomplete: '#6a737d',
};

/** Approximate width of Verdana 11px text: enough for a badge, and the same on every run. */
function textWidth(s: string): number {
  let w = 0;
  for (const c of s) w += /[il.:|' ]/.test(c) ? 3.5 : /[mwMW]/.test(c) ? 9.5 : /[A-Z0-9]/.test(c) ? 7.5 : 6.6;
  return Math.ceil(w);
}

export function badgeSvg(report: ConformanceReport): string {
  const label = `conformance ${report.specVersion}`;
  // A partial run (--grep, one shard) says so: its badge is not the suite's verdict.
  const message = report.run.partial
    ? `${report.verdict} (partial ${report.run.partial.checks}/${report.run.partial.of})`
    : report.verdict;
  const lw = textWidth(label) + 12;
  const mw = textWidth(message) + 12;
  const width = lw + mw;
  const colour = COLOUR[report.verdict];
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="20" role="img" aria-label="${esc(`${label}: ${message}`)}">`,
    `  <title>${esc(`${label}: ${message}`)}</title>`,
    '  <linearGradient id="s" x2="0" y2="100%"><stop offset="0" stop-color="#bbb" stop-opacity=".1"/><stop offset="1" stop-opacity=".1"/></linearGradient>',
    `  <clipPath id="r"><rect width="${width}" height="20" rx="3" fill="#fff"/></clipPath>`,
    '  <g clip-path="url(#r)">',
    `    <rect width="${lw}" height="20" fill="#555"/>`,
    `    <rect x="${lw}" width="${mw}" height="20" fill="${colour}"/>`,
    `    <rect width="${width}" height="20" fill="url(#s)"/>`,
    '  </g>',
    '  <g fill="#fff" text-anchor="middle" font-family="Verdana,Geneva,DejaVu Sans,sans-serif" font-size="11">',
    `    <text x="${lw / 2}" y="15" fill="#010101" fill-opacity=".3">${esc(label)}</text>`,
    `    <text x="${lw / 2}" y="14">${esc(label)}</text>`,
    `    <text x="${lw + mw / 2}" y="15" fill="#010101" fill-opacity=".3">${esc(message)}</text>`,
    `    <text x="${lw + mw / 2}" y="14">${esc(message)}</text>`,
    '  </g>',
    '</svg>',
    '',
  ].join('\n');
}
