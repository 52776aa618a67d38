/** The repository the bench measures (the working tree, as it is). */
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** The seed of every suite and peer run of the bench: two benches send the same requests. */
export const SEED = 1234;
