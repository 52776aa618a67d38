import { terminalSafe } from '../text/terminal-text.ts';

/**
 * The longest value a field of the target file (an id, a model, a URL, a parameter name) may hold.
 * Each becomes part of a request's URL: a base URL, a path parameter and the query together stay far
 * below the client's MAX_URL_CHARS (core/http/client.ts; test/target-limits.test.ts holds it), so no
 * request of the run is refused for its length after a whole run was spent.
 */
export const MAX_VALUE_CHARS = 4096;

/**
 * Every value of the target file but the keys (checked on their own, never shown), checked at load:
 * a value longer than MAX_VALUE_CHARS, or holding a control or invisible character (an escaped `"\0"`
 * in YAML, a zero-width space pasted with an id), would be sent to the target as it is and judged
 * there. The message names the field and where the character is, shown escaped, never the value.
 */
export function valueProblem(value: unknown, at = ''): string | undefined {
  if (typeof value === 'string') {
    const field = at.slice(1);
    if (field === 'apiKey' || field === 'restrictedApiKey') return undefined;
    if (value.length > MAX_VALUE_CHARS)
      return `${field} is ${value.length} characters long, over the ${MAX_VALUE_CHARS} a field takes (a whole file's content instead of the value?)`;
    const chars = [...value];
    const index = chars.findIndex((c) => terminalSafe(c) !== c);
    if (index >= 0)
      return `${field} holds a control or invisible character (${terminalSafe(chars[index]!)} at character ${index + 1}), which would be sent to the target as it is`;
    return undefined;
  }
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    for (const [k, v] of Object.entries(value)) {
      const problem = valueProblem(v, `${at}.${k}`);
      if (problem) return problem;
    }
  }
  return undefined;
}
