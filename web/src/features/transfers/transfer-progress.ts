import type { Transferable } from '#shared/contract/entities/transfers.ts';
import { formatBytes, formatNumber } from '../../lib/format.ts';

/** How far a transfer has got, as the bar and its words show it. */
export interface TransferProgress {
  /** 0-100, of the files, counting failed ones as finished; undefined until the job has counted the files. */
  donePercent?: number;
  failedPercent?: number;
  /** e.g. "3 of 10 files · 1.2 MB of 4 MB", "1 failed"; or what it waits for. */
  words: string;
}

const percent = (part: number, total: number) => (total === 0 ? 0 : Math.min(100, Math.round((part / total) * 1000) / 10));

/** The files and bytes done of the totals the job recorded; before it has chosen the files, what the transfer waits on. */
export function progressOf(transfer: Transferable): TransferProgress {
  const total = transfer.files_total;
  if (total === undefined) {
    if (transfer.transfer_state === 'Pending') return { words: 'Waiting to start' };
    if (transfer.transfer_state === 'InProgress') return { words: 'Choosing the files to deliver' };
    return { words: transfer.transfer_state === 'Succeeded' ? `${formatNumber(transfer.payload_count)} recordings` : 'No files delivered' };
  }
  const done = transfer.files_done ?? 0;
  const failed = transfer.files_failed ?? 0;
  const files = `${formatNumber(done)} of ${formatNumber(total)} files`;
  const bytes = transfer.bytes_total === undefined ? '' : ` · ${formatBytes(transfer.bytes_done ?? 0)} of ${formatBytes(transfer.bytes_total)}`;
  const failures = failed > 0 ? ` · ${formatNumber(failed)} failed` : '';
  return { donePercent: percent(done, total), failedPercent: percent(failed, total), words: `${files}${bytes}${failures}` };
}
