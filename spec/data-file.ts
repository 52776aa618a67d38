import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

/**
 * One of spec/'s YAML files, parsed. The compiled package carries each as JSON beside it, written by
 * the build from the same YAML (scripts/build-dist.ts): three processes of a run read the catalogue and
 * the OpenAPI document, and JSON reads much faster than YAML. A clone reads the YAML
 * itself, its one source.
 */
export function readSpecFile(url: URL): unknown {
  const json = new URL(url.href.replace(/\.ya?ml$/, '.json'));
  if (json.href !== url.href && existsSync(json)) return JSON.parse(readFileSync(json, 'utf8'));
  return yamlParser().parse(readFileSync(url, 'utf8'));
}

/**
 * The YAML parser, loaded when YAML is read, not when a module that may read it is: its 74 modules
 * would cost Playwright's runner (its console reporter reads the catalogue) and the embedded
 * reference's run (which reads no target file) CPU at start. The compiled package's
 * processes read JSON.
 */
export function yamlParser(): typeof import('yaml') {
  return createRequire(import.meta.url)('yaml') as typeof import('yaml');
}
