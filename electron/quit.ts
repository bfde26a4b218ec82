/*
 * Quitting waits for core to close (monitor, embedded sandbox, agents, handles), but never for
 * long: a hung close must not leave a process behind that the person cannot see or stop.
 */

export const QUIT_TIMEOUT_MS = 4000;

/** Resolves 'closed' when close() settles in time, 'timed-out' otherwise; close() errors count as closed. */
export async function closeWithin(
  close: () => Promise<void>,
  ms: number = QUIT_TIMEOUT_MS,
): Promise<'closed' | 'timed-out'> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timed-out'>((resolve) => {
    timer = setTimeout(() => resolve('timed-out'), ms);
  });
  try {
    return await Promise.race([
      close().then(
        () => 'closed' as const,
        () => 'closed' as const,
      ),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
}
