/** Small statistics and formatting helpers of the bench. */

export function median(xs: readonly number[]): number | undefined {
  if (xs.length === 0) return undefined;
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

export interface Spread {
  median: number;
  min: number;
  max: number;
  n: number;
}

export function spread(xs: readonly (number | undefined)[]): Spread | undefined {
  const v = xs.filter((x): x is number => x !== undefined && Number.isFinite(x));
  const m = median(v);
  if (m === undefined) return undefined;
  return { median: m, min: Math.min(...v), max: Math.max(...v), n: v.length };
}

/** `4.12 s (3.98–4.30)`, or `4.12 s` for one run; `n/a` when nothing was measured. */
export function fmtSeconds(s: Spread | undefined, digits = 2): string {
  if (!s) return 'n/a';
  const f = (ms: number) => (ms / 1000).toFixed(digits);
  return s.n > 1 ? `${f(s.median)} s (${f(s.min)}–${f(s.max)})` : `${f(s.median)} s`;
}

export function fmtNumber(s: Spread | undefined, unit = '', digits = 0): string {
  if (!s) return 'n/a';
  const f = (x: number) => x.toFixed(digits);
  const u = unit ? ` ${unit}` : '';
  return s.n > 1 && s.min !== s.max ? `${f(s.median)}${u} (${f(s.min)}–${f(s.max)})` : `${f(s.median)}${u}`;
}

export function fmtMb(kb: Spread | undefined): string {
  if (!kb) return 'n/a';
  const f = (x: number) => (x / 1024).toFixed(0);
  return kb.n > 1 && kb.min !== kb.max ? `${f(kb.median)} MB (${f(kb.min)}–${f(kb.max)})` : `${f(kb.median)} MB`;
}

/** Escapes a value for a Markdown table cell. */
export function cell(s: string): string {
  return s.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

export function table(head: readonly string[], rows: ReadonlyArray<readonly string[]>): string {
  const line = (r: readonly string[]) => `| ${r.map(cell).join(' | ')} |`;
  return [line(head), `|${head.map(() => '---').join('|')}|`, ...rows.map(line)].join('\n');
}
