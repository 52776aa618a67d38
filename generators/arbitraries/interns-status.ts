import fc from 'fast-check';

/**
 * The lifecycle states of section 3: the suite's one list of them, here in its lowest layer so that the
 * arbitraries, the checks, the judges and the command's preflight name the same eight (the checks take it
 * through suites/support/interns.ts). test/spec-openapi.test.ts holds it to the InternStatus enum of
 * spec/openapi.yaml. The reference and the bench's independent server keep lists of their own, written
 * from the document apart: implementations the suite judges share none of its code.
 */
export const INTERN_STATES = [
  'awaiting_chat_install',
  'queued',
  'provisioning',
  'running',
  'failed',
  'stopped',
  'destroying',
  'destroy_failed',
] as const;
export type InternState = (typeof INTERN_STATES)[number];

export interface StatusSubsetConstraints {
  /** Fewest states in a subset (default 1). */
  minLength?: number;
}

/** A non-empty subset of the section 3 states, in random order (the filter value is comma-separated). */
export function statusSubset(c: StatusSubsetConstraints = {}): fc.Arbitrary<InternState[]> {
  const minLength = c.minLength ?? 1;
  if (!Number.isInteger(minLength) || minLength < 1 || minLength > INTERN_STATES.length) {
    throw new RangeError(`statusSubset: minLength must be 1..${INTERN_STATES.length}, got ${minLength}`);
  }
  return fc.shuffledSubarray([...INTERN_STATES], { minLength });
}

/**
 * A status filter value that is not a comma-separated list of section 3 states: an unknown word, a
 * state in the wrong case, or a list with an empty or unknown element. Whitespace around elements is
 * left out: trimming it would not break the document.
 */
export function invalidStatusFilter(): fc.Arbitrary<string> {
  const unknown = fc.constantFrom(
    'sleeping',
    'RUNNING',
    'Running',
    'deleted',
    'active',
    'destroyed',
    '*',
    'all',
    'running;failed',
  );
  return fc.oneof(
    unknown,
    fc.tuple(fc.constantFrom(...INTERN_STATES), unknown).map(([s, u]) => `${s},${u}`),
    fc.constantFrom(...INTERN_STATES).map((s) => `${s},`),
    fc.constantFrom(...INTERN_STATES).map((s) => `,${s}`),
    fc.constantFrom(...INTERN_STATES).map((s) => `${s},,${s}`),
  );
}
