/** A run that could not be made: one line on stderr and exit 2, never a stack trace (rule "Bad input exits 2"). */
export class Fatal extends Error {}

export function die(message: string): never {
  throw new Fatal(message);
}
