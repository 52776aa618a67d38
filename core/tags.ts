import type { CheckDeclaration } from './check.ts';
import { strongestLevel } from './catalogue.ts';
import { OPERATION_TAG } from './operations.ts';

/** Tags that let `--grep @must`, `--grep @files` or `--grep @property` select checks. */
export function tagsOf(check: CheckDeclaration): string[] {
  return [`@${strongestLevel(check.requirements).toLowerCase()}`, `@${OPERATION_TAG[check.operation]}`, `@${check.kind ?? 'check'}`];
}
