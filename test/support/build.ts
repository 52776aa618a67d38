import { join } from 'node:path';

/** Where npm test's build of the sources is (test/global-setup.ts); unset, scripts run through tsx. */
export const BUILD_ENV = 'CONFORMANCE_TEST_BUILD';

/** A script of this project as the command to run it: the build's compiled module, else the source with tsx's loader. */
export function scriptCommand(root: string, script: string): string[] {
  const built = process.env[BUILD_ENV];
  if (built) return [process.execPath, join(built, 'dist', script.replace(/\.ts$/, '.js'))];
  return [process.execPath, '--import', 'tsx', join(root, script)];
}
