/**
 * Where the document states how many fields an object has, the count binds both ways (spec/readings.yaml,
 * decision stated-counts): 4.2 "an object with one field `data`" and 2.4 pricing's "Four fields
 * `prompt`, `completion`, `request`, `image`". Where a note lists fields without a count (the field
 * tables, architecture, the percentiles, section 7's error object), unknown fields stay open.
 */
import { excerpt } from '../../core/check/evidence.ts';

/** Field names listed in a message at most. */
const NAMED = 5;

/** The fields of `obj` beyond the `counted` ones, worded for a message; undefined when there are none. */
export function fieldsBeyondCount(
  obj: Record<string, unknown>,
  counted: readonly string[],
): { count: number; text: string } | undefined {
  const others: string[] = [];
  let count = 0;
  for (const k in obj) {
    if (counted.includes(k)) continue;
    count++;
    if (others.length < NAMED) others.push(JSON.stringify(excerpt(k, 60)));
  }
  if (count === 0) return undefined;
  return { count, text: `${others.join(', ')}${count > NAMED ? ` (+${count - NAMED} more)` : ''}` };
}
