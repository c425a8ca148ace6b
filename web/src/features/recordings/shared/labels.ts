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

/** Lengths by the portal's one duration rule (lib/format.ts), re-exported so the recordings screens import it from here. */
export { formatDuration } from '../../../lib/format.ts';
