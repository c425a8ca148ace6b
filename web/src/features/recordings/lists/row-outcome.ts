import { PAYLOAD_DATA_STATUSES, type PayloadDataStatus } from '#shared/constants/payloads.ts';
import { DATA_STATUS_LABELS } from '../shared/labels.ts';

/** What the last bulk action did to one row: a receipt, or a download link asked for. */
export interface RowOutcome {
  action: 'receipt' | 'download';
  ok: boolean;
  /** The PayloadDataStatus the server gave, or its message when it gave something else. */
  status: PayloadDataStatus | string;
}

const isDataStatus = (value: string): value is PayloadDataStatus => (PAYLOAD_DATA_STATUSES as readonly string[]).includes(value);

/** "Receipt confirmed", "Link ready", or the refusal in words with its wire status: "Group not allowed for your role (GroupNotAuthorised)". */
export function outcomeText(outcome: RowOutcome): string {
  if (outcome.ok) return outcome.action === 'receipt' ? 'Receipt confirmed' : 'Link ready';
  return isDataStatus(outcome.status) ? `${DATA_STATUS_LABELS[outcome.status]} (${outcome.status})` : outcome.status;
}
