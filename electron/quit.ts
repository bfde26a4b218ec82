import type { ConfirmRequest } from '../shared/app/ipc/dialogs.ts';

/*
 * Quitting waits for core to close (monitor, embedded sandbox, agents, handles), but never for
 * long: a hung close must not leave a process behind that the person cannot see or stop.
 */

const QUIT_TIMEOUT_MS = 4000;

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

/**
 * Whether a quit goes ahead: while core has a question (a rollout running), it is asked first,
 * once; a quit the tray's item already asked about goes on without asking again.
 */
export function quitGate(
  question: () => ConfirmRequest | null,
  confirm: (request: ConfirmRequest) => Promise<boolean>,
) {
  let confirmed = false;
  let asking: Promise<boolean> | undefined;
  return {
    /** The person already said yes (the tray's Quit item asked). */
    confirmed(): void {
      confirmed = true;
    },
    allowed(): Promise<boolean> {
      const request = confirmed ? null : question();
      if (request === null) return Promise.resolve(true);
      asking ??= confirm(request).finally(() => (asking = undefined));
      return asking;
    },
  };
}
