import type { RunSettings } from '../core/run/run-settings.ts';
import { resolveHeaders } from './header-option.ts';
import { loadTarget, targetOfMapping, type Target } from '../core/target/target.ts';
import { startReference } from '../reference/server.ts';
import { referenceKeyEnv, referenceTargetMapping } from '../reference/target-file.ts';

/**
 * The target of a run: the target file, parsed once (a TargetFileError names what is wrong), or,
 * without one, the embedded reference started here and described by a target file like any
 * deployment's (its mapping, read without the YAML parser); `stop` ends it. The command line, the
 * programmatic API and a Playwright run started directly all take their target from here.
 */
export async function runTarget(
  settings: RunSettings,
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ target: Target; stop?: () => Promise<void> }> {
  // --header's values: read now, from the environment the keys are read from (a UsageError when unset).
  const headers = settings.headers?.length ? { headers: resolveHeaders(settings.headers, env) } : {};
  if (settings.targetFile) return { target: { ...loadTarget(settings.targetFile, { ...settings, env }), ...headers } };
  const server = await startReference();
  try {
    return {
      target: {
        ...targetOfMapping(referenceTargetMapping(server), 'embedded reference', { env: referenceKeyEnv(server) }),
        ...headers,
      },
      stop: () => server.close(),
    };
  } catch (e) {
    await server.close();
    throw e;
  }
}
