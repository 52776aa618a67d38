import { openApiDocument } from './schemas.ts';

type Parameter = { name?: string; $ref?: string; schema?: { minimum?: number; maximum?: number } };
type Doc = {
  paths: Record<string, { get?: { parameters?: Parameter[] } }>;
  components: { parameters?: Record<string, Parameter> };
};

/**
 * minimum/maximum of an integer query parameter, read from spec/openapi.yaml so the arbitraries
 * follow the document (4.1: limit 1..1000; 4.3: page size 1..500) instead of repeating its numbers.
 */
export function parameterBounds(path: string, name: string): { min: number; max: number } {
  const doc = openApiDocument() as unknown as Doc;
  const resolve = (p: Parameter): Parameter =>
    p.$ref ? (doc.components.parameters?.[p.$ref.replace('#/components/parameters/', '')] ?? p) : p;
  const param = (doc.paths[path]?.get?.parameters ?? []).map(resolve).find((p) => p.name === name);
  const min = param?.schema?.minimum;
  const max = param?.schema?.maximum;
  if (typeof min !== 'number' || typeof max !== 'number')
    throw new Error(`spec/openapi.yaml: ${path} ${name} has no minimum/maximum`);
  return { min, max };
}

export const FILES_LIMIT = () => parameterBounds('/containers/{container_id}/files', 'limit');
export const INTERNS_LIMIT = () => parameterBounds('/interns', 'limit');
