import type { FaultDeclaration } from './index.ts';

/** Faults of the reference in interns behaviour; each breaks the requirements it names and nothing else. */
export const INTERNS_FAULTS: readonly FaultDeclaration[] = [
  {
    name: 'interns-status-dropped-with-workspace',
    operation: 'listInterns',
    breaks: ['interns.status.filter'],
    description:
      '4.3: the status filter is honoured alone (and with a page size) but dropped when the workspace filter is given too: every status of the workspace is listed.',
  },
  {
    name: 'interns-page-not-newest',
    operation: 'listInterns',
    breaks: ['interns.order.newest-first'],
    description:
      '2.6, 4.3: with a page size (and no cursor), when more interns match than fit, the page leaves out the newest one: it is in order, newest first, but it is not the first k interns of the query at a larger page size.',
  },
  {
    name: 'interns-has-more-string',
    operation: 'listInterns',
    breaks: ['interns.list.schema'],
    description: '2.6: has_more is the string "true"/"false" instead of a boolean.',
  },
  {
    name: 'interns-description-not-string',
    operation: 'listInterns',
    breaks: ['interns.intern.field-types'],
    description: '2.5: description is null (the field is a string and is not one of the four nullable fields).',
  },
  {
    name: 'interns-bad-uuid',
    operation: 'listInterns',
    breaks: ['interns.intern.uuid-fields'],
    description: '2.5: vault_id is "vault_" plus 8 hex digits instead of a UUID.',
  },
  {
    name: 'interns-timestamps-no-millis',
    operation: 'listInterns',
    breaks: ['interns.intern.timestamps'],
    description: '2.5: createdAt and updatedAt are written without the milliseconds (…:00Z).',
  },
  {
    name: 'interns-hostname-no-domain',
    operation: 'listInterns',
    breaks: ['interns.intern.hostname-shape'],
    description: '2.5: hostname is the intern name alone, without .<domain>.',
  },
  {
    name: 'interns-hostname-mismatch',
    operation: 'listInterns',
    breaks: ['interns.intern.hostname-label-name'],
    description:
      '2.5: the first label of hostname is derived from the id, not the intern name (a name that is a host label).',
  },
  {
    name: 'interns-model-bad-shape',
    operation: 'listInterns',
    breaks: ['interns.intern.model-shape'],
    description: '2.5: model is the slug alone, without <author>/.',
  },
  {
    name: 'interns-unknown-status-value',
    operation: 'listInterns',
    breaks: ['interns.intern.status-value'],
    description: '2.5 / 3: interns in state stopped are reported with status "paused", which section 3 does not list.',
  },
  {
    name: 'interns-other-workspace-leak',
    operation: 'listInterns',
    breaks: ['interns.intern.workspace-of-key'],
    description:
      "4.3: without a workspace filter, the interns of another workspace (a default workspace) are listed instead of the key's.",
  },
  {
    name: 'interns-first-answer-other-workspace',
    operation: 'listInterns',
    breaks: ['interns.intern.workspace-of-key'],
    description:
      "4.3: the first non-empty list of interns the management key receives (a command-line run's preflight asks it) lists one intern of another workspace; every later answer is the key's own.",
  },
  {
    name: 'interns-oldest-first',
    operation: 'listInterns',
    breaks: ['interns.order.newest-first'],
    description: '2.6: the list is oldest first (createdAt ascending).',
  },
  {
    name: 'interns-limit-max-too-low',
    operation: 'listInterns',
    breaks: ['interns.limit.bounds-accepted'],
    description: '4.3 / 8: a page size above 100 is rejected with invalid_body although 500 is the documented maximum.',
  },
  {
    name: 'interns-limit-not-enforced',
    operation: 'listInterns',
    breaks: ['interns.limit.respected'],
    description: '4.3: the page size parameter is validated but the page always holds the default number of interns.',
  },
  {
    name: 'interns-limit-bounds-not-enforced',
    operation: 'listInterns',
    breaks: ['interns.limit.out-of-range-rejected'],
    description:
      '4.3 / 7.3: an integer page size outside 1..500 is clamped into range and answered 200 instead of invalid_body.',
  },
  {
    name: 'interns-status-filter-ignored',
    operation: 'listInterns',
    breaks: ['interns.status.filter'],
    description: '4.3: the status filter is validated but not applied.',
  },
  {
    name: 'interns-regional-host-served',
    operation: 'listInterns',
    breaks: ['interns.regional-host-refused'],
    description: '4.3: the regional host answers list interns like the main host instead of refusing it.',
  },
  {
    name: 'interns-regional-host-served-with-query',
    operation: 'listInterns',
    breaks: ['interns.regional-host-refused'],
    description:
      '4.3: the regional host refuses list interns without a query string, and answers it like the main host with one.',
  },
  {
    name: 'interns-status-subset-ignored',
    operation: 'listInterns',
    breaks: ['interns.status.filter'],
    description: '4.3: a filter of one status is applied, a list of several statuses is ignored (every status listed).',
  },
  {
    name: 'interns-page-size-off-by-one',
    operation: 'listInterns',
    breaks: ['interns.limit.respected'],
    alsoFails: [
      {
        id: 'interns.limit.maximum',
        why: 'Asked for the maximum page size of 500, the page holds 501 interns: 8 "Page size 1 to 500".',
      },
    ],
    description: '4.3: a page holds one intern more than the page size asked for.',
  },
  {
    name: 'interns-bad-status-accepted',
    operation: 'listInterns',
    breaks: ['interns.status.unknown-rejected', 'interns.status.invalid-rejected'],
    description:
      '4.3 / 7.3: status values that are not section 3 states are silently dropped instead of rejected with invalid_body.',
  },
  {
    name: 'interns-workspace-filter-refused',
    operation: 'listInterns',
    breaks: ['interns.workspace.filter'],
    description: "4.3: the workspace filter set to the key's own workspace is refused with 403.",
  },
  {
    name: 'interns-workspace-fallback',
    operation: 'listInterns',
    breaks: ['interns.workspace.mismatch-no-fallback', 'interns.workspace.mismatch-refused'],
    description: "4.3: a workspace filter naming another workspace is ignored: 200 with the key's own interns.",
  },
  {
    name: 'interns-workspace-fallback-with-limit',
    operation: 'listInterns',
    breaks: ['interns.workspace.mismatch-no-fallback'],
    description:
      "4.3: a workspace filter naming another workspace is refused alone, and ignored with a page size beside it: 200 with the key's own interns.",
  },
  {
    name: 'interns-malformed-workspace-accepted',
    operation: 'listInterns',
    breaks: ['interns.workspace.malformed-refused', 'interns.workspace.malformed-rejected'],
    description:
      '4.3 / 7.3: a workspace filter that is not a UUID is ignored (200) instead of rejected with invalid_body.',
  },
  {
    name: 'interns-malformed-workspace-empty',
    operation: 'listInterns',
    breaks: ['interns.workspace.malformed-refused', 'interns.workspace.malformed-rejected'],
    description:
      '4.3 "string (UUID format)": a workspace filter that is not a UUID is answered 200 with an empty data, as another workspace\'s UUID may be (reading workspace-mismatch-empty); a value outside the parameter\'s type is invalid input under every reading.',
  },
];
