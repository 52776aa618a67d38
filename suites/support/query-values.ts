/**
 * How the faithful readings of the document take an invalid query value (spec/readings.yaml), so
 * that a check fails a MUST only for what every reading refuses:
 * - a page size (4.1 limit, 4.3 page size: "integer", "Minimum 1, maximum N");
 * - a status filter (4.3: "Comma-separated list of values from section 3").
 */

/**
 * - `not-an-integer`: no integer under any reading (abc, 1.5, NaN, Infinity): refused (MUST);
 * - `out-of-range`: an integer in plain digits outside the bounds: refused, or clamped into range
 *   (readings limit-clamped): SHOULD;
 * - `spelling`: an integer in another spelling (1e2, 2.0, +5, 05, 0x10) or an empty value, which
 *   readings take as that integer or as no value: observed (general.integer-spelling);
 * - `valid`: plain digits within the bounds.
 */
export type PageSizeValue = 'valid' | 'out-of-range' | 'spelling' | 'not-an-integer';

export function classifyPageSize(value: string, min: number, max: number): PageSizeValue {
  if (/^(0|-?[1-9][0-9]*)$/.test(value)) {
    const n = Number(value);
    return n >= min && n <= max ? 'valid' : 'out-of-range';
  }
  if (value.trim() === '') return 'spelling';
  return Number.isInteger(Number(value)) ? 'spelling' : 'not-an-integer';
}

/**
 * - `unknown`: an element that is no section 3 state in any letter case (sleeping, *): refused (MUST);
 * - `lenient`: only letter case, blanks or empty elements differ from a list of states (RUNNING,
 *   `running,`), which lenient parsers accept: SHOULD;
 * - `valid`: a comma-separated list of section 3 states exactly.
 */
export type StatusFilterValue = 'valid' | 'lenient' | 'unknown';

export function classifyStatusFilter(value: string, states: readonly string[]): StatusFilterValue {
  const parts = value.split(',');
  if (parts.every((p) => states.includes(p))) return 'valid';
  const words = parts.map((p) => p.trim().toLowerCase()).filter((p) => p.length > 0);
  return words.every((w) => states.includes(w)) ? 'lenient' : 'unknown';
}
