import type { TransferFileFormat, TransferState, TransferTargetType, TransferType } from '#shared/constants/account.ts';

/** The transfer screens' words and colours for wire values. State words are the portal's one map (lib/labels.ts). */
export { TRANSFER_STATE_LABELS } from '../../lib/labels.ts';

export const TRANSFER_TYPE_LABELS: Record<TransferType, string> = { Payload: 'Recordings', Vantage: 'Vantage report' };

export const TARGET_TYPE_LABELS: Record<TransferTargetType, string> = { S3: 'Amazon S3', SFTP: 'SFTP' };

export const FILE_FORMAT_LABELS: Record<TransferFileFormat, string> = {
  Uncompressed: 'Uncompressed files',
  Zipped: 'Zip archive',
  ZippedWithPassword: 'Zip archive with password',
};

export const FILE_FORMAT_HELP: Record<TransferFileFormat, string> = {
  Uncompressed: 'One file per recording, as recorded.',
  Zipped: 'One zip archive per delivery.',
  ZippedWithPassword: 'One zip archive per delivery, AES-256 encrypted with the zip password (7-Zip opens it).',
};

/** Badge colours: green done, blue under way, red failed, orange partly failed. */
export const TRANSFER_STATE_COLOURS: Record<TransferState, string> = {
  Pending: 'gray',
  InProgress: 'blue',
  Succeeded: 'green',
  PartialFail: 'orange',
  Failed: 'red',
};

/** States a transfer leaves by itself (the job moves it on): screens refresh while one is shown. */
export const MOVING_STATES: ReadonlySet<TransferState> = new Set(['Pending', 'InProgress']);
