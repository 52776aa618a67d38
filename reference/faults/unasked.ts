import type { FaultDeclaration } from './index.ts';

/**
 * Faults that break a rule only on a response no check written for that rule asks for: a page of a
 * query check, an error of a check about something else. Only the whole-run judges, fed every
 * response of the run, see them (rule "Judge every response": live data's bad page is rarely the one a check asked for).
 */
export const UNASKED_FAULTS: readonly FaultDeclaration[] = [
  {
    name: 'files-limit0-has-more-without-cursor',
    operation: 'listContainerFiles',
    breaks: ['files.pagination.last-id-when-has-more'],
    alsoFails: [
      {
        id: 'files.limit.out-of-range-rejected',
        why: 'limit=0 is below "Minimum 1" (4.1) and is answered 200, not refused with 400 (7.1).',
      },
    ],
    description:
      'limit=0 is accepted and answered {"data":[],"last_id":null,"has_more":true}: no pagination check sends it, only the out-of-range query check (4.1 rule 1).',
  },
  {
    name: 'files-limit-1-first-id-wrong',
    operation: 'listContainerFiles',
    breaks: ['files.list.first-id'],
    description:
      'A page asked with limit=1 (the bounds check) names a file it does not list as first_id (2.2 "Id of the first file of the page").',
  },
  {
    name: 'files-503-code-500',
    operation: 'listContainerFiles',
    breaks: ['files.errors.code-equals-status'],
    description:
      'Every 9th listContainerFiles request is answered 503 (Retry-After: 0) with the integer error.code 500: only met while other checks paginate, and retried (7.1 "In these bodies error.code equals the HTTP status").',
  },
  {
    name: 'interns-408-code-500',
    operation: 'listInterns',
    breaks: ['interns.errors.code-equals-status'],
    alsoFails: [
      {
        id: 'interns.errors.shape',
        why: 'The integer codes of 7.3 are 401, 403 and 408 only: a body with the integer code 500 has no shape of 7.3.',
      },
    ],
    description:
      'Every 9th list interns request is answered 408 (Retry-After: 0) with the integer error.code 500 (7.3: integer codes are the status).',
  },
  {
    name: 'interns-default-page-501',
    operation: 'listInterns',
    breaks: ['interns.limit.maximum'],
    description:
      'A request that names no page size gets 501 interns (8 "Page size 1 to 500" holds whatever is asked, the default page included).',
  },
  {
    name: 'interns-deep-other-workspace',
    operation: 'listInterns',
    breaks: ['interns.intern.workspace-of-key'],
    description:
      'The 301st intern of a page of more than 300 is of another workspace than the key\'s (4.3 "The API key selects the caller, the workspace and the visible interns").',
  },
  {
    name: 'interns-deep-order-swapped',
    operation: 'listInterns',
    breaks: ['interns.order.newest-first'],
    description: 'The 301st and 302nd interns of a page of more than 301 are swapped (2.6 "Newest first").',
  },
  {
    name: 'interns-cursor-page-other-workspace',
    operation: 'listInterns',
    breaks: ['interns.intern.workspace-of-key'],
    description:
      'On a page fetched with the interns cursor, the third intern is of another workspace than the key\'s; every first page is clean (4.3 "The API key selects the caller, the workspace and the visible interns").',
  },
  {
    name: 'interns-status-list-first-only',
    operation: 'listInterns',
    breaks: ['interns.status.filter'],
    description:
      '4.3 "Comma-separated list of values from section 3": of a list of statuses only the first is applied (every intern listed is in a wanted state, the others are missing).',
  },
];
