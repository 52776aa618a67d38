/**
 * `npm run requirement-ids`: writes spec/requirement-ids.ts, the requirement ids of
 * spec/requirements.yaml as a TypeScript union, so that a check naming an id the catalogue lacks, or
 * passing a message where an id belongs, does not compile. test/spec-requirements.test.ts fails when
 * the file and the catalogue differ.
 */
import { writeFileSync } from 'node:fs';
import { requirementIdsSource } from '../spec/requirement-ids-source.ts';

writeFileSync(new URL('../spec/requirement-ids.ts', import.meta.url), requirementIdsSource());
