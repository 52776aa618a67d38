/**
 * Strict query-parameter parsing shared by the routes. A parameter given more than once is
 * ambiguous and therefore invalid (the document defines single values only).
 */

export type Parsed<T> = { ok: true; value: T } | { ok: false };

/** The single value of `name`, undefined when absent, or failure when repeated. */
export function single(query: URLSearchParams, name: string): Parsed<string | undefined> {
  const all = query.getAll(name);
  if (all.length > 1) return { ok: false };
  return { ok: true, value: all[0] };
}

/**
 * An integer within [min, max] written as plain decimal digits with no sign, no leading zero,
 * no spaces, no exponent, no fraction (`^[1-9][0-9]*$`). Sections 4.1/4.3/8 give the type
 * "integer" with bounds; the reference reads the query string as that integer's canonical
 * decimal form and refuses everything else (`05`, `+5`, ` 5`, `1.0`, `1e2`, empty).
 */
export function strictInt(raw: string | undefined, min: number, max: number, dflt: number): Parsed<number> {
  if (raw === undefined) return { ok: true, value: dflt };
  if (!/^[1-9][0-9]{0,15}$/.test(raw)) return { ok: false };
  const n = Number(raw);
  return n >= min && n <= max ? { ok: true, value: n } : { ok: false };
}
