/** A curl command that replays one request, keys shown as shell variables ($API_KEY) never as values. */
export function curlCommand(url: string, redactedHeaders: Record<string, string>): string {
  const parts = ['curl', '-sS', '-i'];
  for (const [k, v] of Object.entries(redactedHeaders)) parts.push('-H', doubleQuote(`${k}: ${v}`));
  parts.push(singleQuote(url));
  return parts.join(' ');
}

// Double quotes so that $API_KEY expands; every other shell-active character is escaped.
function doubleQuote(s: string): string {
  const escaped = s.replace(/[\\"`]/g, (c) => `\\${c}`).replace(/\$(?!(API_KEY|RESTRICTED_API_KEY)\b)/g, '\\$');
  return `"${escaped}"`;
}

function singleQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}
