import type { ReferenceServer } from './options.ts';

/** Environment variables that carry the reference's keys, so its target file holds none. */
export const REFERENCE_KEY_ENV = {
  apiKey: 'CONFORMANCE_REFERENCE_API_KEY',
  restrictedApiKey: 'CONFORMANCE_REFERENCE_RESTRICTED_KEY',
} as const;

type Mapping = { [field: string]: string | Mapping };

/**
 * The target file that describes a started reference, as its YAML reads: the mapping a user's file
 * holds (keys as ${VAR}). The embedded reference's run takes its target from it (core/target/target.ts
 * targetOfMapping) without the YAML parser; referenceTargetYaml writes the same mapping as the file.
 */
export function referenceTargetMapping(server: ReferenceServer): Mapping {
  const f = server.fixtures;
  const p = server.options.internsParams;
  return {
    baseUrl: server.baseUrl,
    apiKey: `\${${REFERENCE_KEY_ENV.apiKey}}`,
    restrictedApiKey: `\${${REFERENCE_KEY_ENV.restrictedApiKey}}`,
    containerFiles: {
      containerId: f.containerId,
      emptyContainerId: f.emptyContainerId,
      restartedContainerId: f.restartedContainerId,
    },
    modelEndpoints: { model: f.model, missingModel: f.missingModel, forbiddenModel: f.forbiddenModel },
    interns: {
      workspaceId: f.workspaceId,
      otherWorkspaceId: f.otherWorkspaceId,
      regionalBaseUrl: server.regionalBaseUrl,
      params: { limit: p.limit, status: p.status, workspace: p.workspace },
      cursorParam: server.options.internsCursor,
    },
  };
}

/**
 * The target file of a started reference, written like any user's: top-level values plain (a URL,
 * `${VAR}`), nested ones quoted, a mapping two levels down on one line.
 */
export function referenceTargetYaml(server: ReferenceServer): string {
  const lines = (mapping: Mapping, indent: string): string[] =>
    Object.entries(mapping).flatMap(([field, value]) => {
      if (typeof value === 'string') return [`${indent}${field}: ${indent ? JSON.stringify(value) : value}`];
      if (indent)
        return [
          `${indent}${field}: { ${Object.entries(value)
            .map(([k, v]) => `${k}: ${JSON.stringify(v)}`)
            .join(', ')} }`,
        ];
      return [`${field}:`, ...lines(value, '  ')];
    });
  return [...lines(referenceTargetMapping(server), ''), ''].join('\n');
}

/** The environment that goes with referenceTargetYaml. */
export function referenceKeyEnv(server: ReferenceServer): Record<string, string> {
  return {
    [REFERENCE_KEY_ENV.apiKey]: server.keys.management,
    [REFERENCE_KEY_ENV.restrictedApiKey]: server.keys.restricted,
  };
}
