/**
 * A Node option that runs `source` (an ES module's text) before the program in the process it is
 * given to, as a data: URL: the compiled package needs no file for it, and the process need not read
 * TypeScript. For the NODE_OPTIONS of Playwright's runner and worker (cli/conformance.ts).
 */
export function importSourceOption(source: string): string {
  // `'` percent-encoded too: NODE_OPTIONS is split like a shell's words, and a quote would start a quoted one.
  return `--import=data:text/javascript,${encodeURIComponent(source).replaceAll("'", '%27')}`;
}
