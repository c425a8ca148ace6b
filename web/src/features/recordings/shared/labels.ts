import type { PayloadDataStatus, PayloadState } from '#shared/constants/payloads.ts';

/**
 * The recordings screens' words and colours for the wire's payload values. Type and state words are the portal's one
 * label map (lib/labels.ts), re-exported so the screens import them from one place.
 */
export { PAYLOAD_STATE_LABELS, PAYLOAD_TYPE_LABELS } from '../../../lib/labels.ts';

/** Badge colours: attention for failures, quiet for the usual. */
export const PAYLOAD_STATE_COLOURS: Record<PayloadState, string> = {
  NotRecorded: 'gray',
  Recorded: 'gray',
  Uploaded: 'blue',
  Processed: 'green',
  Transferred: 'teal',
  Deleted: 'gray',
  Destroyed: 'dark',
  Failed: 'red',
  Scanning: 'yellow',
  Quarantined: 'orange',
};

/** Why a data link was or was not given (PayloadDataStatus). */
export const DATA_STATUS_LABELS: Record<PayloadDataStatus, string> = {
  Ok: 'Link ready',
  NoS3Url: 'No stored file',
  NoMatchingRecord: 'No such recording',
  GroupNotAuthorised: 'Group not allowed for your role',
  TypeNotAuthorised: 'Type not allowed for your role',
};

/** "1 h 02 min 05 s" style lengths read badly in tables; "1:02:05" or "2:05". */
export function formatDuration(seconds: number | undefined): string {
  if (seconds === undefined || !Number.isFinite(seconds)) return '—';
  const whole = Math.round(seconds);
  const hours = Math.floor(whole / 3600);
  const minutes = Math.floor((whole % 3600) / 60);
  const rest = String(whole % 60).padStart(2, '0');
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${rest}` : `${minutes}:${rest}`;
}
