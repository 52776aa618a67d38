/**
 * The words of the service document and of the suite's own outputs that a key may happen to be, derived
 * from their sources: spec/openapi.yaml (property and required names, enum values, parameter names,
 * path segments, component names), the parts of the requirement ids of spec/requirements.yaml and of
 * the check ids (`files`, `errors`, `service-metadata`), and the field names of report.json and of the target
 * file (their JSON schemas). Masked everywhere, such a key would rewrite them (core/text/mask/weak-keys.ts).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { ALL_CHECKS } from '../../suites/checks/index.ts';

const ROOT = join(import.meta.dirname, '..', '..');
/** Members whose keys are names: of properties, definitions, components. */
const NAMING = new Set(['properties', '$defs', 'schemas', 'parameters', 'securitySchemes', 'responses']);

export function documentWords(): Set<string> {
  const words = new Set<string>();
  const add = (w: unknown) => {
    if (typeof w === 'string' && w !== '') words.add(w.toLowerCase());
  };
  const walk = (x: unknown): void => {
    if (Array.isArray(x)) for (const v of x) walk(v);
    else if (x && typeof x === 'object')
      for (const [k, v] of Object.entries(x)) {
        if (NAMING.has(k) && v && typeof v === 'object' && !Array.isArray(v))
          for (const name of Object.keys(v)) add(name);
        if ((k === 'required' || k === 'enum') && Array.isArray(v)) for (const w of v) add(w);
        if (k === 'name') add(v);
        walk(v);
      }
  };
  const api = parse(readFileSync(join(ROOT, 'spec/openapi.yaml'), 'utf8')) as { paths: Record<string, unknown> };
  walk(api);
  for (const path of Object.keys(api.paths))
    for (const segment of path.split('/')) if (!segment.startsWith('{')) add(segment);
  const requirements = parse(readFileSync(join(ROOT, 'spec/requirements.yaml'), 'utf8')) as {
    requirements: Array<{ id: string }>;
  };
  for (const id of [...requirements.requirements.map((r) => r.id), ...ALL_CHECKS.map((c) => c.id)])
    for (const part of id.split('.')) add(part);
  walk(JSON.parse(readFileSync(join(ROOT, 'reports/report.schema.json'), 'utf8')));
  walk(JSON.parse(readFileSync(join(ROOT, 'core/target/target.schema.json'), 'utf8')));
  return words;
}
