import type { ApiResponse, Auth } from '../../core/client.ts';
import type { ProbeContext } from '../../core/check.ts';
import type { Operation } from '../../core/operations.ts';
import type { SchemaName } from '../../generators/schemas.ts';

/** What the cross-cutting checks (auth, errors) need to know of each operation. */
export interface OperationProbe {
  operation: Exclude<Operation, 'general'>;
  tag: string;
  /** Sends the operation's plain request (the target's fixture) with the given credential. */
  send(ctx: ProbeContext, auth: Auth): Promise<ApiResponse>;
  /** Section 7 error schema of the operation. */
  errorSchema: SchemaName;
}

export const OPERATION_PROBES: readonly OperationProbe[] = [
  {
    operation: 'listContainerFiles',
    tag: 'files',
    send: ({ api, target }, auth) => api.listContainerFiles(target.containerFiles.containerId, { limit: 1 }, auth),
    errorSchema: 'ContainerFilesError',
  },
  {
    operation: 'listModelEndpoints',
    tag: 'models',
    send: ({ api, target }, auth) => api.listModelEndpoints(target.modelEndpoints.model, auth),
    errorSchema: 'ModelEndpointsError',
  },
  {
    operation: 'listInterns',
    tag: 'interns',
    send: ({ api }, auth) => api.listInterns({}, auth),
    errorSchema: 'InternsError',
  },
];
