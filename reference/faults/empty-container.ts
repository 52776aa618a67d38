import type { FaultDeclaration } from './index.ts';

/** Faults of the empty container (a known container that lists no file). */
export const EMPTY_CONTAINER_FAULTS: readonly FaultDeclaration[] = [
  {
    name: 'files-empty-container-has-more',
    operation: 'listContainerFiles',
    breaks: ['files.pagination.last-id-when-has-more'],
    description:
      'A container that lists no file answers every page with empty data, has_more true and last_id null (4.1 rule 1: last_id is non-null whenever has_more is true).',
  },
];
