import { sameCause } from './also-fails.ts';
import type { FaultDeclaration } from './index.ts';

/**
 * Faults of the reference in authentication (section 5) and error bodies (sections 1, 7); each breaks
 * the requirements it names and nothing else. Where a defect cannot help breaking more than one
 * requirement (an error body that is not an error body at all breaks both the section-7 shape and the
 * operation's own shape), every requirement it breaks is listed, the one it is meant to prove first.
 */
export const AUTH_ERRORS_FAULTS: readonly FaultDeclaration[] = [
  // ------------------------------------------------------------------ section 5
  {
    name: 'auth-bearer-rejected',
    operation: 'general',
    breaks: ['auth.bearer-accepted'],
    // A refused key leaves nothing else to judge: every check that sends the key and needs its answer
    // (a 200, or the 400 of an invalid query) gets the 401 instead, and fails its own requirement with it.
    alsoFails: sameCause(
      [
        'files.list.schema',
        'files.container-id.restarted',
        'files.limit.bounds-accepted',
        'files.limit.out-of-range-rejected',
        'files.limit.non-integer-rejected',
        'files.after.invalid-rejected',
        'models.response.data-wrapper',
        'models.unknown-model-404',
        'interns.list.schema',
        'interns.limit.bounds-accepted',
        'interns.limit.respected',
        'interns.limit.out-of-range-rejected',
        'interns.limit.non-integer-rejected',
        'interns.status.invalid-rejected',
        'interns.status.unknown-rejected',
        'interns.workspace.filter',
        'interns.workspace.malformed-rejected',
      ],
      'The valid key is refused with 401 on every operation (5 rule 1), so the request this requirement is judged on gets that 401 instead of the answer the document gives it.',
    ),
    description:
      'Every operation answers 401 to the valid management key sent as `Bearer <key>` (5 rule 1); the restricted key still gets its 403. Every other check that needs a 200 fails with it.',
  },
  {
    name: 'auth-missing-key-accepted',
    operation: 'general',
    breaks: ['auth.missing-401'],
    description: 'A request without an Authorization header is served as if it carried the management key (200).',
  },
  {
    name: 'auth-missing-key-accepted-with-params',
    operation: 'general',
    breaks: ['auth.missing-401'],
    description:
      'A request without an Authorization header is refused bare and served (200) when it carries query parameters (5 rule 2: "When the header is missing ... the response is 401").',
  },
  {
    name: 'auth-missing-key-403',
    operation: 'general',
    breaks: ['auth.missing-401'],
    description:
      'A request without an Authorization header gets 403 (a well-formed 403 body) instead of 401 (5 rule 2).',
  },
  {
    name: 'auth-invalid-key-accepted',
    operation: 'general',
    breaks: ['auth.invalid-401'],
    description: '`Bearer <token>` with a token the service does not know is served as the management key (200).',
  },
  {
    name: 'auth-key-prefix-accepted',
    operation: 'general',
    breaks: ['auth.invalid-401'],
    description:
      'A bearer token that begins with the management key is served as that key (200): the key with a character more is another, invalid key (5 rule 2).',
  },
  {
    name: 'auth-basic-scheme-accepted',
    operation: 'general',
    breaks: ['auth.malformed-401'],
    description:
      'An `Authorization: Basic base64(<key>:)` header carrying a valid key is accepted (200); 5 rule 1 names the bearer scheme only.',
  },
  {
    name: 'auth-restricted-401',
    operation: 'general',
    breaks: ['auth.restricted-403'],
    description: 'A valid key that lacks permission gets 401 (its 401 body) instead of 403 (5 rule 3).',
  },
  {
    name: 'auth-error-code-mismatch',
    operation: 'listInterns',
    breaks: ['auth.error-shape', 'interns.errors.code-equals-status'],
    description:
      'The 401 body of list interns carries error.code 403: an integer, but not the status (7.3 "401 (integer)"; 7.2 ties no code to the model-endpoints statuses, so the fault lives on list interns).',
  },
  // ------------------------------------------------------------------ section 7
  {
    name: 'errors-flat-body',
    operation: 'listModelEndpoints',
    breaks: ['general.errors.shape', 'models.errors.shape', 'models.unknown-model-error', 'models.unknown-model-404'],
    description:
      'The 404 of an unknown model is `{ code, message }` at the top level, without the `error` object of section 7.',
  },
  {
    name: 'errors-user-id-number',
    operation: 'listContainerFiles',
    breaks: ['general.errors.shape'],
    description:
      'The 400 bodies of listContainerFiles carry `user_id: 42` (section 7: string or null); error.code and message stay right.',
  },
  {
    name: 'errors-html-body',
    operation: 'listModelEndpoints',
    breaks: [
      'general.json-body',
      'general.errors.shape',
      'models.errors.shape',
      'models.unknown-model-error',
      'models.unknown-model-404',
    ],
    alsoFails: [
      {
        id: 'general.json-media-type',
        why: 'The page is served as text/html, not application/json, the media type every response is held to (SHOULD).',
      },
    ],
    description:
      'The 404 of an unknown model is an HTML page served as text/html (a framework default page), not a JSON error body.',
  },
  {
    name: 'errors-text-plain-content-type',
    operation: 'general',
    breaks: ['general.json-body'],
    alsoFails: [
      {
        id: 'general.json-media-type',
        why: 'text/plain is not application/json either, the media type every response is held to (SHOULD).',
      },
    ],
    description: 'Every 401 carries its correct JSON error body, but with Content-Type text/plain.',
  },
  {
    name: 'errors-files-string-code',
    operation: 'listContainerFiles',
    breaks: ['files.errors.shape'],
    description: 'The 400 bodies of listContainerFiles carry error.code as the string "400" (7.1: integer).',
  },
  {
    name: 'errors-files-code-mismatch',
    operation: 'listContainerFiles',
    breaks: ['files.errors.code-equals-status'],
    description: 'The 400 bodies of listContainerFiles carry error.code 422 (an integer, but not the status; 7.1).',
  },
  {
    name: 'errors-files-404-status',
    operation: 'listContainerFiles',
    breaks: ['files.errors.documented-status'],
    description:
      'A container id the service does not know gets 404 with a well-formed 7.1 body (code 404); 4.1 documents 400, 401, 403, 429, 500 and 503 only.',
  },
  {
    name: 'errors-files-no-service-metadata',
    operation: 'listContainerFiles',
    breaks: ['files.errors.service-metadata'],
    description:
      'The 400 bodies of listContainerFiles leave out service_metadata and user_id (section 7: present on the container-files errors).',
  },
  {
    name: 'errors-models-string-code',
    operation: 'listModelEndpoints',
    breaks: ['models.errors.code-integer'],
    description:
      'The 404 of an unknown model carries error.code "not_found" (a string; 7 reserves string codes for 7.3).',
  },
  {
    name: 'errors-interns-integer-invalid-body',
    operation: 'listInterns',
    breaks: ['interns.errors.shape', 'interns.limit.non-integer-rejected', 'interns.limit.out-of-range-rejected'],
    description:
      'An invalid interns page size is answered with error.code 400 (an integer 7.3 does not list) instead of "invalid_body".',
  },
];
