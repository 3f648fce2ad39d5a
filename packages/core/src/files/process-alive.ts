/**
 * Whether a process with this pid exists on this machine: signal 0 checks without sending
 * anything. ESRCH means it is gone; EPERM means it exists under another user.
 */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
