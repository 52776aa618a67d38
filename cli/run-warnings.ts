import type { Target } from '../core/target/target.ts';
import { weakKeyWarnings } from '../core/text/mask.ts';

/**
 * What weakens the run's evidence or its outputs, said in the console and kept in the report.
 * NODE_TLS_REJECT_UNAUTHORIZED=0 turns certificate checks off for every TLS connection of the process:
 * the answers judged may not come from the target the base URL names. A weak key of the target file
 * (core/text/mask/weak-keys.ts) is masked only where it stands as the key.
 */
export function runWarnings(
  target?: Pick<Target, 'apiKey' | 'restrictedApiKey'>,
  env: NodeJS.ProcessEnv = process.env,
): string[] {
  return [
    ...(env['NODE_TLS_REJECT_UNAUTHORIZED'] === '0'
      ? [
          'TLS certificates were not verified (NODE_TLS_REJECT_UNAUTHORIZED=0): the answers judged may come from another server than the base URL names',
        ]
      : []),
    ...(target ? weakKeyWarnings(target) : []),
  ];
}
