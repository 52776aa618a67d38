import { readdirSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CheckListing } from '../playwright/playwright-tests.ts';

/** Where a check is declared: the file and line of its `id:` in suites/checks/ (1-based, as editors count). */
export interface CheckLocation {
  file: string;
  line: number;
  column: number;
}

const HERE = fileURLToPath(import.meta.url);
const CHECKS_DIR = join(HERE, '..', 'checks');

/**
 * The declaration of each check, found in the check modules' own text: the line of its `id:`
 * property, a string literal (`id: 'files.limit.bounds'`) or, for checks declared once per operation,
 * a template (`id: \`auth.bearer.${op.tag}\``, located at that one declaration). Read from the files
 * that run (the .ts sources, or the compiled .js of the package, whose lines are its own), so
 * Playwright's reporters, its HTML report and editors open the check itself. A check found at no line,
 * or at two, has no location (the caller keeps Playwright's own).
 */
export function checkLocations(ids: readonly string[]): Map<string, CheckLocation> {
  const ext = extname(HERE);
  const literal = new Map<string, CheckLocation[]>();
  const templates: Array<{ re: RegExp; at: CheckLocation }> = [];
  for (const name of readdirSync(CHECKS_DIR)
    .filter((n) => n.endsWith(ext))
    .sort()) {
    const file = join(CHECKS_DIR, name);
    const lines = readFileSync(file, 'utf8').split('\n');
    lines.forEach((text, i) => {
      const m = /\bid: (?:'([^'\\]+)'|"([^"\\]+)"|`([^`\\]+)`)/.exec(text);
      if (!m) return;
      const at = { file, line: i + 1, column: m.index + 1 };
      const plain = m[1] ?? m[2];
      if (plain !== undefined) literal.set(plain, [...(literal.get(plain) ?? []), at]);
      else {
        const parts = m[3]!.split(/\$\{[^}]*\}/);
        if (parts.length > 1)
          templates.push({
            re: new RegExp(`^${parts.map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.+?')}$`),
            at,
          });
        else literal.set(m[3]!, [...(literal.get(m[3]!) ?? []), at]);
      }
    });
  }
  const out = new Map<string, CheckLocation>();
  for (const id of ids) {
    const found = literal.get(id) ?? templates.filter((t) => t.re.test(id)).map((t) => t.at);
    if (found.length === 1) out.set(id, found[0]!);
  }
  return out;
}

/** The check listing with each check's declaration, for the Playwright tests (playwright/playwright-tests.ts). */
export function locatedListing(listing: readonly CheckListing[]): CheckListing[] {
  const at = checkLocations(listing.map((c) => c.id));
  return listing.map((c) => {
    const location = at.get(c.id);
    return location ? { ...c, location } : c;
  });
}
