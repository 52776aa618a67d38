import type { FaultDeclaration } from './index.ts';

/** Faults of what every operation shares: where the service is served (section 9) and the media type of a 200 (4.1). */
export const GENERAL_FAULTS: readonly FaultDeclaration[] = [
  {
    name: 'base-url-without-v1',
    operation: 'general',
    breaks: ['general.base-url-v1'],
    description:
      'The service is served under /api instead of /v1, and its base_url (the target file it writes) is http://host/api: the paths of section 4 are appended to a base URL without the version segment (9 rule 1).',
  },
  {
    name: 'files-list-media-type',
    operation: 'listContainerFiles',
    breaks: ['files.list.media-type'],
    alsoFails: [
      {
        id: 'general.json-media-type',
        why: 'The 200 of listContainerFiles is not application/json, the media type every response is held to (SHOULD); it stays a JSON type (RFC 6839 +json), so section 1 "exchanges JSON" holds.',
      },
    ],
    description:
      'The 200 of listContainerFiles is served as application/vnd.api+json, a JSON media type but not the application/json 4.1 names ("media type `application/json`").',
  },
];
