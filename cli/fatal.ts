/** A run that could not be made: one line on stderr and exit 2, never a stack trace. */
export class Fatal extends Error {}

export function die(message: string): never {
  throw new Fatal(message);
}
