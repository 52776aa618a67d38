import type { AlsoFails } from './index.ts';

/**
 * One reason shared by several requirements a fault also fails (a refused key leaves many checks
 * without their answer). A file of its own: the fault files import it while index.ts imports them.
 */
export function sameCause(ids: readonly string[], why: string): AlsoFails[] {
  return ids.map((id) => ({ id, why }));
}
