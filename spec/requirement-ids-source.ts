import { readFileSync } from 'node:fs';
import { parse } from 'yaml';

/** The text of spec/requirement-ids.ts for the catalogue as it is now (scripts/requirement-ids.ts). */
export function requirementIdsSource(): string {
  const catalogue = parse(readFileSync(new URL('./requirements.yaml', import.meta.url), 'utf8')) as {
    requirements: Array<{ id: string }>;
  };
  const ids = catalogue.requirements.map((r) => r.id);
  return [
    '// Written by `npm run requirement-ids` from spec/requirements.yaml; do not edit.',
    '',
    '/** Every requirement id of the catalogue: a check can name no other. */',
    'export const REQUIREMENT_IDS = [',
    ...ids.map((id) => `  '${id}',`),
    '] as const;',
    '',
    'export type RequirementId = (typeof REQUIREMENT_IDS)[number];',
    '',
  ].join('\n');
}
