/** The three operations of the service document (section 1), plus cross-cutting rules (sections 5, 7, 9). */
export const OPERATIONS = ['listContainerFiles', 'listModelEndpoints', 'listInterns', 'general'] as const;
export type Operation = (typeof OPERATIONS)[number];

/** Short tag used in Playwright test tags and report grouping. */
export const OPERATION_TAG: Record<Operation, string> = {
  listContainerFiles: 'files',
  listModelEndpoints: 'models',
  listInterns: 'interns',
  general: 'general',
};
