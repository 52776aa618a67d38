import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

/**
 * One of spec/'s YAML files, parsed. The compiled package carries each as JSON beside it, written by
 * the build from the same YAML (scripts/build-dist.ts): three processes of a run read the catalogue and
 * the OpenAPI document, and JSON reads many times faster than YAML (issue 31). A clone reads the YAML
 * itself, its one source.
 */
export function readSpecFile(url: URL): unknown {
  const json = new URL(url.href.replace(/\.ya?ml$/, '.json'));
  if (json.href !== url.href && existsSync(json)) return JSON.parse(readFileSync(json, 'utf8'));
  // Loaded only here: the compiled package's processes read JSON, and Playwright's runner (its console
  // reporter reads the catalogue) would otherwise load the YAML parser's 74 modules before it can start
  // its worker (issue 31).
  const { parse } = createRequire(import.meta.url)('yaml') as typeof import('yaml');
  return parse(readFileSync(url, 'utf8'));
}
