import { ConditionFailedError, type ItemKey, type TableStore, type TransactOperation, type WriteCondition } from '#core/ports/table-store.ts';

/** What a file's write adds to the transfer's own item: its counters (`files_done`, …) and when progress was made. */
export interface TransferProgress {
  add: Record<string, number>;
  at: string;
}

/** One file's bookkeeping write: its own items, and what it counts on the transfer (none: it only checks the lease). */
export interface FileWrite {
  operations: TransactOperation[];
  progress?: TransferProgress;
}

/** DynamoDB's limit on one transaction's operations; one of them is the transfer's own. */
const MAX_OPERATIONS = 100;

interface Waiting {
  write: FileWrite;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/**
 * Writes the files' bookkeeping of one invocation (an attempt counted, an arrival staged, a file settled), each
 * exactly as it would be written alone, but those that wait while a write is under way go together in the next
 * transaction (a group commit). The transfer's item, which every file's write checks (the lease) or counts on, is then
 * written by one transaction at a time: files delivered several at once do not conflict on it, and a thousand small
 * files cost tens of transactions instead of thousands. Nothing waits to be grouped: a write with none ahead of it
 * goes at once.
 *
 * A group is all or nothing, as each write is. When a condition fails (one file's, or the lease), each write of the
 * group is tried again alone, so each gets its own answer and no file's write is held back by another's. Any other
 * failure (the table did not answer) is every write's: each file retries as it would had its own write failed.
 */
export function fileWriter(table: Pick<TableStore, 'transactWrite'>, transfer: { key: ItemKey; condition: WriteCondition }): (write: FileWrite) => Promise<void> {
  const queue: Waiting[] = [];
  let writing = false;

  const transferOperation = (group: readonly Waiting[]): TransactOperation => {
    const counted = group.map((entry) => entry.write.progress).filter((progress): progress is TransferProgress => progress !== undefined);
    if (counted.length === 0) return { kind: 'check', key: transfer.key, condition: transfer.condition };
    const add: Record<string, number> = {};
    for (const progress of counted) for (const [name, value] of Object.entries(progress.add)) add[name] = (add[name] ?? 0) + value;
    const at = counted.map((progress) => progress.at).reduce((latest, time) => (time > latest ? time : latest));
    return { kind: 'update', key: transfer.key, update: { set: { progress_at: at }, add }, condition: transfer.condition };
  };

  const commit = async (group: readonly Waiting[]): Promise<void> => {
    try {
      await table.transactWrite([...group.flatMap((entry) => entry.write.operations), transferOperation(group)]);
      for (const entry of group) entry.resolve();
    } catch (error) {
      if (group.length > 1 && error instanceof ConditionFailedError) {
        for (const entry of group) await commit([entry]);
        return;
      }
      for (const entry of group) entry.reject(error);
    }
  };

  /** The waiting writes that fit one transaction, in the order they came. */
  const nextGroup = (): Waiting[] => {
    const group: Waiting[] = [];
    let operations = 1;
    while (queue.length > 0) {
      const size = (queue[0] as Waiting).write.operations.length;
      if (group.length > 0 && operations + size > MAX_OPERATIONS) break;
      group.push(queue.shift() as Waiting);
      operations += size;
    }
    return group;
  };

  const drain = async () => {
    writing = true;
    try {
      while (queue.length > 0) await commit(nextGroup());
    } finally {
      writing = false;
    }
  };

  return (write) =>
    new Promise<void>((resolve, reject) => {
      queue.push({ write, resolve, reject });
      if (!writing) void drain();
    });
}
