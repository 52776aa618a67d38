/**
 * The operations the reference serves (service document section 1), and `general` for faults of the
 * cross-cutting rules (sections 5, 7, 9). The reference names its own: it stands apart from the suite.
 */
export type Operation = 'listContainerFiles' | 'listModelEndpoints' | 'listInterns' | 'general';
