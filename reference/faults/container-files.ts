import type { FaultDeclaration } from './index.ts';

/**
 * Faults of the reference in container files behaviour; each breaks the requirements it names and nothing else.
 * The id faults change the id codec as a whole (what the route writes as an id it also reads back as
 * `after`), so that a traversal still works and only the id rule breaks.
 */
export const CONTAINER_FILES_FAULTS: readonly FaultDeclaration[] = [
  // ---- 2.2 / 2.1 shapes
  {
    name: 'files-list-wrong-object',
    operation: 'listContainerFiles',
    breaks: ['files.list.schema'],
    description: 'The list object says "container.file.list" instead of "list" (2.2).',
  },
  {
    name: 'files-wrong-object',
    operation: 'listContainerFiles',
    breaks: ['files.file.schema'],
    description: 'Every file says object "file" instead of "container.file" (2.1).',
  },
  {
    name: 'files-wrong-source',
    operation: 'listContainerFiles',
    breaks: ['files.file.schema'],
    description: 'Every file says source "user" instead of "assistant" (2.1).',
  },
  // ---- 2.1 ids and fields
  {
    name: 'files-raw-path-ids',
    operation: 'listContainerFiles',
    breaks: ['files.file.id-encodes-path'],
    alsoFails: [
      {
        id: 'files.after.strictly-after',
        why: 'after is read in the same raw codec, so a container file id as 2.1 writes it ("cfile_" + base64url of the path) names another path to it: the listing resumes after that other path, not "strictly after that path" (4.1).',
      },
      {
        id: 'files.after.invalid-rejected',
        why: 'Every value after "cfile_" is a raw path to this codec, so a prefixed value that is no base64url ("cfile_fn5+") is accepted, not refused with 400 (7.1).',
      },
    ],
    description:
      'Ids are cfile_ followed by the raw path, not its base64url encoding (2.1); after is read the same way.',
  },
  {
    name: 'files-standard-base64-ids',
    operation: 'listContainerFiles',
    breaks: ['files.file.id-url-safe-alphabet'],
    alsoFails: [
      {
        id: 'files.after.invalid-rejected',
        why: 'after is read in the same standard alphabet, so a cfile_ value with "+" or "/" (no base64url, 2.1) is accepted, not refused with 400 (7.1).',
      },
    ],
    description:
      'Ids use the standard base64 alphabet (+ and /) instead of base64url (2.1); after is read the same way.',
  },
  {
    name: 'files-container-id-not-echoed',
    operation: 'listContainerFiles',
    breaks: ['files.file.container-id-echo'],
    description: 'container_id of every file drops the -r<nonce> suffix of a restarted container id (2.1 echo, 4.1).',
  },
  {
    name: 'files-created-at-millis',
    operation: 'listContainerFiles',
    breaks: ['files.file.created-at-seconds'],
    description: 'created_at is in milliseconds instead of seconds (2.1).',
  },
  {
    name: 'files-absolute-paths',
    operation: 'listContainerFiles',
    breaks: ['files.file.path-relative'],
    description:
      'Paths (and the ids that encode them) begin with "/" (2.1 "relative to the container"); after strips it back.',
  },
  // ---- 2.2 / 4.1 page contents
  {
    name: 'files-locale-order',
    operation: 'listContainerFiles',
    breaks: ['files.list.path-order'],
    alsoFails: [
      {
        id: 'files.pagination.limit-independent',
        why: 'Which files sit between the first and the last of a page depends on its size, so walks at two limits list the same files in two sequences (2.2, 4.1: one "lexicographic path order").',
      },
    ],
    description:
      'The files between the first and the last of each page are sorted with localeCompare, not byte-wise (2.2, 4.1); first_id, last_id and the set of files each page holds stay right.',
  },
  {
    name: 'files-first-id-wrong',
    operation: 'listContainerFiles',
    breaks: ['files.list.first-id'],
    description: 'first_id is the id of the last file of the page when it holds two or more (2.2, 4.1 rule 5).',
  },
  {
    name: 'files-restarted-container-rejected',
    operation: 'listContainerFiles',
    breaks: ['files.container-id.restarted'],
    description: 'A container id ending in -r<nonce> (a restarted session, 4.1) is refused with 400.',
  },
  // ---- 4.1 / 8 limit
  {
    name: 'files-default-limit-50',
    operation: 'listContainerFiles',
    breaks: ['files.limit.default-value', 'files.limit.default'],
    description: 'Without limit a page holds up to 50 files instead of 100 (4.1, 8).',
  },
  {
    name: 'files-limit-1-rejected',
    operation: 'listContainerFiles',
    breaks: ['files.limit.bounds-accepted'],
    description: 'limit=1 is refused with 400, as if the minimum were exclusive (4.1, 8).',
  },
  {
    name: 'files-limit-bounds-not-enforced',
    operation: 'listContainerFiles',
    breaks: ['files.limit.out-of-range-rejected'],
    description:
      'An integer limit outside 1..1000 (0, -1, 1001) is clamped into range instead of rejected with 400 (4.1, 7.1).',
  },
  {
    name: 'files-limit-non-integer-accepted',
    operation: 'listContainerFiles',
    breaks: ['files.limit.non-integer-rejected'],
    description:
      'limit is read with parseInt: "1.5" is 1, "abc" and "" fall back to the default, instead of 400 (4.1, 7.1).',
  },
  // ---- 4.1 after
  {
    name: 'files-after-invalid-accepted',
    operation: 'listContainerFiles',
    breaks: ['files.after.no-prefix-rejected', 'files.after.invalid-rejected'],
    description:
      'An after value that is not a container file id is ignored (listing from the start) instead of rejected with 400 (4.1, 7.1).',
  },
  {
    name: 'files-after-unknown-path-rejected',
    operation: 'listContainerFiles',
    breaks: ['files.after.any-file-id'],
    description:
      'A well-formed after id whose path is not an object of the container is refused with 400 (4.1 "any container file id").',
  },
  // ---- 4.1 pagination rules 1-4, one page at a time
  {
    name: 'files-last-id-null-with-has-more',
    operation: 'listContainerFiles',
    breaks: ['files.pagination.last-id-when-has-more'],
    description: 'last_id is null on every page with has_more true (4.1 rule 1).',
  },
  {
    name: 'files-last-id-not-last',
    operation: 'listContainerFiles',
    breaks: ['files.pagination.last-id-is-last-listed'],
    description:
      'On pages not at the scan bound with two or more files, last_id is the id of the first listed file (4.1 rule 2).',
  },
  {
    name: 'files-scan-bound-position-behind',
    operation: 'listContainerFiles',
    breaks: ['files.pagination.scan-bound-position'],
    description:
      'On a page that ends at the scan bound after listing files, last_id names a position before the last listed file (4.1 rule 3).',
  },
  {
    name: 'files-null-last-id-with-data',
    operation: 'listContainerFiles',
    breaks: ['files.pagination.null-last-id'],
    description: 'The last page (has_more false) has a null last_id although it lists files (4.1 rule 4).',
  },
  {
    name: 'files-short-page-without-scan-bound',
    operation: 'listContainerFiles',
    breaks: ['files.pagination.short-page-at-scan-bound'],
    alsoFails: [
      {
        id: 'files.limit.default',
        why: 'The page without limit stops at 99 files as well, not at the scan bound: 4.1 / 8 "Default 100".',
      },
    ],
    description:
      'Pages stop at limit-1 files with has_more true and last_id their last file, without reaching the scan bound (4.1 rules 2-3).',
  },
];
