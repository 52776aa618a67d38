/**
 * A curl command that replays one request, keys shown as shell variables never as values: the target
 * file's own (`$EXAMPLE_MANAGEMENT_KEY`), or $API_KEY for a key written literally (core/text/mask.ts).
 */
export function curlCommand(url: string, redactedHeaders: Record<string, string>): string {
  const parts = ['curl', '-sS', '-i'];
  for (const [k, v] of Object.entries(redactedHeaders)) parts.push('-H', doubleQuote(`${k}: ${v}`));
  parts.push(singleQuote(url));
  return parts.join(' ');
}

/**
 * Double quotes so that a key's placeholder expands: a `$NAME` standing as a word of its own (after a
 * space or at the start, as `Bearer $NAME` is). Every other shell-active character is escaped, so a
 * `$` inside a word (`base64($API_KEY:)`, the form of a derived value) or before anything but a name stays text.
 */
function doubleQuote(s: string): string {
  const escaped = s.replace(/[\\"`]/g, (c) => `\\${c}`);
  const words = escaped.split(' ').map((w) => (/^\$[A-Za-z_][A-Za-z0-9_]*$/.test(w) ? w : w.replace(/\$/g, '\\$')));
  return `"${words.join(' ')}"`;
}

function singleQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}
