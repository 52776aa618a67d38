import type { RequirementId } from '../../spec/requirement-ids.ts';
import { readSpecFile } from '../../spec/data-file.ts';
import type { Operation } from './operations.ts';

export type Level = 'MUST' | 'SHOULD' | 'UNSPECIFIED';
export const LEVELS: readonly Level[] = ['MUST', 'SHOULD', 'UNSPECIFIED'];

export interface Requirement {
  id: RequirementId;
  level: Level;
  section: string;
  operation: Operation;
  statement: string;
  interpretation?: string;
  /** The document's own words it rests on: section and verbatim quote (test/spec-requirements.test.ts finds each). */
  basis?: ReadonlyArray<{ section: string; quote: string }>;
  /** false for "not shown" points that the three read operations cannot reveal at all. */
  observable?: boolean;
}

export interface Catalogue {
  specVersion: string;
  document: string;
  requirements: readonly Requirement[];
  byId: ReadonlyMap<string, Requirement>;
}

let cached: Catalogue | undefined;

/** The requirement catalogue of spec/requirements.yaml, read once per process. */
export function catalogue(): Catalogue {
  if (cached) return cached;
  const raw = readSpecFile(new URL('../../spec/requirements.yaml', import.meta.url)) as {
    specVersion: string;
    document: string;
    requirements: Requirement[];
  };
  const byId = new Map<string, Requirement>();
  for (const r of raw.requirements) {
    if (byId.has(r.id)) throw new Error(`spec/requirements.yaml: duplicate id ${r.id}`);
    byId.set(r.id, r);
  }
  cached = { specVersion: String(raw.specVersion), document: raw.document, requirements: raw.requirements, byId };
  return cached;
}

export function requirement(id: string): Requirement {
  const r = catalogue().byId.get(id);
  if (!r) throw new Error(`unknown requirement id ${id}`);
  return r;
}

const RANK: Record<Level, number> = { MUST: 0, SHOULD: 1, UNSPECIFIED: 2 };

/** A check's level is the strongest level among the requirements it proves. */
export function strongestLevel(ids: readonly string[]): Level {
  let best: Level = 'UNSPECIFIED';
  for (const id of ids) if (RANK[requirement(id).level] < RANK[best]) best = requirement(id).level;
  return best;
}
