/**
 * Finds a key in a text in any encoding a target can echo it, by decoding rather than by encoding:
 * written apart from the mask (core/mask.ts), so a form the mask misses is not missed here as well.
 *
 * - the key in any case;
 * - after undoing percent-encoding (`%25` repeated too), `\uXXXX`, `\xXX` and `\/` escapes, in any
 *   mix and any order, in any case;
 * - inside every run of hex digits, decoded at both nibble offsets;
 * - inside every run of base64 / base64url characters, decoded at each of the four character offsets
 *   (one of them lines up with the original groups of three bytes, wherever the key started).
 */

export interface Finding {
  key: string;
  /** How the key was found: `plain`, `escaped`, `hex`, `base64`, `base64url`. */
  how: string;
  /** A few characters around it, with the key itself elided, for the failure message. */
  around: string;
}

/** Every way `keys` appear in `text` (empty when none does). */
export function findKeys(text: string, keys: readonly string[]): Finding[] {
  const out: Finding[] = [];
  const unescaped = unescapeAll(text);
  for (const key of keys) {
    const k = key.toLowerCase();
    const seen = new Set<string>();
    const note = (how: string, where: string, at: number) => {
      const around = where.slice(Math.max(0, at - 30), at + 30).replaceAll(key, '<KEY>');
      if (!seen.has(how + around)) out.push({ key, how, around });
      seen.add(how + around);
    };
    let at = text.toLowerCase().indexOf(k);
    if (at >= 0) note('plain', text, at);
    else if ((at = unescaped.toLowerCase().indexOf(k)) >= 0) note('escaped', unescaped, at);
    for (const source of new Set([text, unescaped])) {
      // Hex, also with a separator between bytes (`73:6b:...`, `73 6B ...`).
      for (const run of source.match(/(?:[0-9a-f]{2}[:\- ]?){4,}/gi) ?? []) {
        for (const offset of [0, 1]) {
          const decoded = Buffer.from(evenLength(run.replace(/[:\- ]/g, '').slice(offset)), 'hex').toString('latin1').toLowerCase();
          if (decoded.includes(k)) note('hex', source, source.indexOf(run));
        }
      }
      for (const [how, alphabet] of [['base64', /[A-Za-z0-9+/]{8,}/g], ['base64url', /[A-Za-z0-9_-]{8,}/g]] as const) {
        for (const run of source.match(alphabet) ?? []) {
          for (let offset = 0; offset < 4; offset++) {
            // NULs dropped: the base64 of UTF-16 bytes decodes to the key with a NUL beside each character.
            const decoded = Buffer.from(run.slice(offset), how).toString('latin1').replaceAll('\u0000', '').toLowerCase();
            if (decoded.includes(k)) note(how, source, source.indexOf(run));
          }
        }
      }
    }
  }
  return out;
}

/** Percent-encoding and backslash escapes undone until nothing changes (each can hide the other). */
function unescapeAll(text: string): string {
  let s = text;
  for (let round = 0; round < 8; round++) {
    const next = s
      .replace(/%25/gi, '%')
      .replace(/%([0-9a-f]{2})/gi, (_, h: string) => String.fromCharCode(parseInt(h, 16)))
      .replace(/\\+u([0-9a-f]{4})/gi, (_, h: string) => String.fromCharCode(parseInt(h, 16)))
      .replace(/\\+x([0-9a-f]{2})/gi, (_, h: string) => String.fromCharCode(parseInt(h, 16)))
      .replace(/\\+\//g, '/')
      .replace(/&#x([0-9a-f]{1,6});/gi, (_, h: string) => String.fromCharCode(parseInt(h, 16)))
      .replace(/&#([0-9]{1,7});/g, (_, d: string) => String.fromCharCode(Number(d)))
      .replace(/&(lowbar|sol|plus|period|equals|tilde|amp);/gi, (_, name: string) => ({ lowbar: '_', sol: '/', plus: '+', period: '.', equals: '=', tilde: '~', amp: '&' })[name.toLowerCase()]!)
      // UTF-16 bytes read as text, a line break or a string concatenation inside the key.
      .replace(/[\u0000\r\n]/g, '')
      .replace(/["']\s*\+\s*["']/g, '');
    if (next === s) break;
    s = next;
  }
  return s;
}

function evenLength(hex: string): string {
  return hex.length % 2 ? hex.slice(0, -1) : hex;
}
