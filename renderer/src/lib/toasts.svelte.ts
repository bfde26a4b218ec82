import type { IpcError } from '../../../shared/ipc/contract.ts';

export type Toast = {
  readonly id: number;
  readonly tone: 'info' | 'success' | 'error';
  readonly message: string;
  readonly problem?: IpcError;
};

const LIFETIME_MS = { info: 5_000, success: 4_000, error: 12_000 } as const;

/** Short messages in a corner of the window; errors stay longer and keep their details. */
export class Toasts {
  items = $state<Toast[]>([]);
  private next = 1;

  show(tone: Toast['tone'], message: string, problem?: IpcError): void {
    const toast: Toast = { id: this.next++, tone, message, ...(problem && { problem }) };
    this.items = [...this.items.slice(-4), toast];
    setTimeout(() => this.dismiss(toast.id), LIFETIME_MS[tone]);
  }

  error(problem: IpcError): void {
    this.show('error', problem.message, problem);
  }

  dismiss(id: number): void {
    this.items = this.items.filter((t) => t.id !== id);
  }
}
