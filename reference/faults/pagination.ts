import type { FaultDeclaration } from './index.ts';

/** Faults of the reference in pagination behaviour (4.1): what only following pages reveals. */
export const PAGINATION_FAULTS: readonly FaultDeclaration[] = [
  {
    name: 'files-after-inclusive',
    operation: 'listContainerFiles',
    breaks: ['files.after.strictly-after'],
    description: 'after resumes AT the named path, listing the cursor file again',
  },
  {
    name: 'files-after-nfc-normalized',
    operation: 'listContainerFiles',
    breaks: ['files.after.strictly-after'],
    description:
      'The path an after id names is normalised to NFC before it is compared: after the id of the NFD "intl/cafe\u0301.md", the NFC "intl/caf\u00e9.md" listed after it is skipped (4.1 "Listing resumes strictly after that path").',
  },
  {
    name: 'files-page-larger-than-limit',
    operation: 'listContainerFiles',
    breaks: ['files.limit.page-size', 'files.limit.default-maximum'],
    alsoFails: [
      {
        id: 'files.limit.default',
        why: 'The page without limit holds 101 files, not the default of 100 (4.1 / 8 "Default 100").',
      },
    ],
    description: 'every page holds one file more than limit',
  },
  {
    name: 'pagination-skip-item-between-pages',
    operation: 'listContainerFiles',
    breaks: ['files.pagination.limit-independent', 'files.after.strictly-after', 'files.pagination.next-page'],
    description:
      'a page fetched with after silently drops the first file after the cursor: the page does not resume strictly after the cursor, walks at two limits list different files (the walk at limit 1000 misses files too, so "every file exactly once" shows only as that difference), and following last_id loses a file another walk lists (files.pagination.walks-agree)',
  },
  {
    name: 'files-last-id-skips-file-at-some-limits',
    operation: 'listContainerFiles',
    breaks: ['files.pagination.next-page'],
    description:
      'at limits 21 to 64, a full page\'s last_id names the next file, which the page did not list: a walk at those limits resumes after that file and never lists it (4.1 rule 2 "`last_id` is the id of the last listed file"); each page alone looks like one ending at the scan bound (rule 3)',
  },
  {
    name: 'pagination-has-more-false-on-truncated-page',
    operation: 'listContainerFiles',
    breaks: ['files.pagination.next-page'],
    description: 'a page that ends at the scan bound says has_more false although files remain',
  },
  {
    name: 'pagination-wrong-sort-order',
    operation: 'listContainerFiles',
    breaks: ['files.list.path-order', 'files.after.strictly-after'],
    description: 'the key space is ordered case-insensitively instead of byte-wise',
  },
  {
    name: 'pagination-cursor-cycle',
    operation: 'listContainerFiles',
    breaks: ['files.pagination.progress', 'files.pagination.scan-bound-position'],
    description: 'a page fetched with after hands the same cursor back: following it never ends',
  },
  {
    name: 'pagination-cursor-backwards',
    operation: 'listContainerFiles',
    breaks: ['files.pagination.progress', 'files.pagination.scan-bound-position'],
    description: 'last_id names a position before the cursor of the request',
  },
];
