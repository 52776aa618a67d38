/**
 * Whether a process of this id exists: signal 0 checks without sending anything. EPERM means it
 * exists under another user, which is still alive.
 */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}
