import { existsSync, readFileSync } from 'node:fs';
import { parse } from 'yaml';

/**
 * One of spec/'s YAML files, parsed. The compiled package carries each as JSON beside it, written by
 * the build from the same YAML (scripts/build-dist.ts): three processes of a run read the catalogue and
 * the OpenAPI document, and JSON reads many times faster than YAML (issue 31). A clone reads the YAML
 * itself, its one source.
 */
export function readSpecFile(url: URL): unknown {
  const json = new URL(url.href.replace(/\.ya?ml$/, '.json'));
  if (json.href !== url.href && existsSync(json)) return JSON.parse(readFileSync(json, 'utf8'));
  return parse(readFileSync(url, 'utf8'));
}
