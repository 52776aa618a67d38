/**
 * Work done by one mask, in characters read, for tests that prove it linear by counting instead of
 * timing (test/mask.test.ts). `read`: each pass over a text, and what a pass reads ahead of its
 * position in runs of unbounded length (blanks after a quote, backslashes, `%25` chains), so a pass
 * that read a run again at each of its characters would count the square of the run. `searched`: what
 * the search for the forms reads (the text once per view searched, and each candidate span), counted
 * apart because a secret added again would add to it, whereas `read` is bounded by a constant number
 * of passes whatever the number of secrets.
 */
export interface MaskWork {
  read: number;
  searched: number;
}

export const noWork = (): MaskWork => ({ read: 0, searched: 0 });
