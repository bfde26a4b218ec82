import { newId } from '../store/ids.ts';

export type OperationRecord = {
  readonly operation_id: string;
  readonly at: string;
  readonly method: string;
  readonly path: string;
  readonly status: number;
  readonly error_code: string | null;
  readonly account: string | null;
};

export const OPERATION_ID_HEADER = 'Operation-Id';
const KEEP = 10_000;

/** The most recent operations, findable by the id every response carries. */
export class OperationLog {
  private readonly records = new Map<string, OperationRecord>();

  newId(): string {
    return newId('operation');
  }

  record(op: OperationRecord): void {
    this.records.set(op.operation_id, op);
    if (this.records.size > KEEP) {
      const oldest = this.records.keys().next().value;
      if (oldest !== undefined) this.records.delete(oldest);
    }
  }

  get(id: string): OperationRecord | undefined {
    return this.records.get(id);
  }
}
