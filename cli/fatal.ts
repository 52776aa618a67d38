import type { EvidenceText } from '../reports/har.ts';

/** A run that could not be made: one line on stderr and exit 2, never a stack trace (rule "Bad input exits 2"). */
export class Fatal extends Error {
  /**
   * evidence.har's text when the run had sent requests before it stopped (the preflight's): written
   * beside the error's report, so what refused the run can be seen ("No green without evidence").
   */
  constructor(
    message: string,
    readonly evidence?: EvidenceText,
  ) {
    super(message);
  }
}

export function die(message: string): never {
  throw new Fatal(message);
}
