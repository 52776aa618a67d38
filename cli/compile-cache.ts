import module from 'node:module';

/**
 * Node's compile cache (Node 22.1 and later: module.enableCompileCache), on before anything else of
 * the command loads, and for every process the command starts (NODE_COMPILE_CACHE, inherited): a run's
 * start-up is mostly compiling Playwright and the suite's modules again, in three processes.
 * NODE_DISABLE_COMPILE_CACHE=1 leaves it off, as Node reads it. On Node 20 there is no such cache and
 * this does nothing.
 */
const enable = (module as { enableCompileCache?: () => { directory?: string } }).enableCompileCache;
if (typeof enable === 'function') {
  const { directory } = enable();
  if (directory && process.env['NODE_COMPILE_CACHE'] === undefined) process.env['NODE_COMPILE_CACHE'] = directory;
}
