/** Argument checks shared by the arbitraries: they throw before any value is generated. */
export function assertIntegerRange(what: string, min: number, max: number): void {
  if (!Number.isSafeInteger(min) || !Number.isSafeInteger(max))
    throw new TypeError(`${what}: min and max must be safe integers, got ${min} and ${max}`);
  if (min > max) throw new RangeError(`${what}: min (${min}) must not exceed max (${max})`);
}
