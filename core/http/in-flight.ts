/** How one call of settleInFlight's ended. */
export type Settled<R> = { ok: true; value: R } | { ok: false; thrown: unknown };

/**
 * Calls `fn` on each item in order, at most `inFlight` calls at once, and none started once a call
 * threw (those already started finish). The outcomes come back by index, a hole for each item never
 * started: read in index order, they say what calls one after another would have said, so a caller
 * that reads them so concludes the same at any `inFlight` (at 1 it is the loop in order exactly).
 */
export async function settleInFlight<T, R>(
  items: readonly T[],
  inFlight: number,
  fn: (item: T, index: number) => Promise<R>,
): Promise<Array<Settled<R> | undefined>> {
  const out: Array<Settled<R> | undefined> = new Array<Settled<R> | undefined>(items.length);
  let next = 0;
  let threw = false;
  const lane = async (): Promise<void> => {
    while (!threw && next < items.length) {
      const i = next++;
      try {
        out[i] = { ok: true, value: await fn(items[i]!, i) };
      } catch (thrown) {
        out[i] = { ok: false, thrown };
        threw = true;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(Math.floor(inFlight), items.length)) }, lane));
  return out;
}

/** The first call (by index) that threw, rethrown: what a loop in order would have thrown. */
export function firstThrown<R>(settled: ReadonlyArray<Settled<R> | undefined>): void {
  for (const s of settled) if (s && !s.ok) throw s.thrown;
}
