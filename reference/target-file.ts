import type { ReferenceServer } from './options.ts';

/** Environment variables that carry the reference's keys, so its target file holds none. */
export const REFERENCE_KEY_ENV = { apiKey: 'CONFORMANCE_REFERENCE_API_KEY', restrictedApiKey: 'CONFORMANCE_REFERENCE_RESTRICTED_KEY' } as const;

/** The target file that describes a started reference, written like any user's (keys as ${VAR}). */
export function referenceTargetYaml(server: ReferenceServer): string {
  const f = server.fixtures;
  const p = server.options.internsParams;
  return [
    `baseUrl: ${server.baseUrl}`,
    `apiKey: \${${REFERENCE_KEY_ENV.apiKey}}`,
    `restrictedApiKey: \${${REFERENCE_KEY_ENV.restrictedApiKey}}`,
    'containerFiles:',
    `  containerId: ${JSON.stringify(f.containerId)}`,
    `  emptyContainerId: ${JSON.stringify(f.emptyContainerId)}`,
    `  restartedContainerId: ${JSON.stringify(f.restartedContainerId)}`,
    'modelEndpoints:',
    `  model: ${JSON.stringify(f.model)}`,
    `  missingModel: ${JSON.stringify(f.missingModel)}`,
    `  forbiddenModel: ${JSON.stringify(f.forbiddenModel)}`,
    'interns:',
    `  workspaceId: ${JSON.stringify(f.workspaceId)}`,
    `  otherWorkspaceId: ${JSON.stringify(f.otherWorkspaceId)}`,
    `  regionalBaseUrl: ${JSON.stringify(server.regionalBaseUrl)}`,
    `  params: { limit: ${JSON.stringify(p.limit)}, status: ${JSON.stringify(p.status)}, workspace: ${JSON.stringify(p.workspace)} }`,
    `  cursorParam: ${JSON.stringify(server.options.internsCursor)}`,
    '',
  ].join('\n');
}

/** The environment that goes with referenceTargetYaml. */
export function referenceKeyEnv(server: ReferenceServer): Record<string, string> {
  return { [REFERENCE_KEY_ENV.apiKey]: server.keys.management, [REFERENCE_KEY_ENV.restrictedApiKey]: server.keys.restricted };
}
