import type { CheckDeclaration } from './check.ts';
import { strongestLevel } from '../document/catalogue.ts';
import { OPERATION_TAG } from '../document/operations.ts';

/** Tags that let `--grep @must`, `--grep @files` or `--grep @property` select checks. */
export function tagsOf(check: CheckDeclaration): string[] {
  return [
    `@${strongestLevel(check.requirements).toLowerCase()}`,
    `@${OPERATION_TAG[check.operation]}`,
    `@${check.kind ?? 'check'}`,
  ];
}

/**
 * What a --grep is matched against outside Playwright (the dry-run plan, the programmatic API): the
 * check id and its tags, as in the test's title; Playwright adds the file name before them.
 */
export function grepText(check: CheckDeclaration): string {
  return `${check.id} ${tagsOf(check).join(' ')}`;
}
