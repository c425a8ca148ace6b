import { Alert } from '@mantine/core';
import type { Payload } from '#shared/contract/entities/payloads.ts';

/** Why a recording has nothing to play, or undefined when it has something. */
export function nothingToPlay(payload: Payload): { title: string; text: string } | undefined {
  if (payload.payload_type === 'AbortedCall') {
    return { title: 'Nothing to play: the call was aborted', text: 'The call ended before it connected, so there is no audio; its parties and times are below.' };
  }
  if (payload.payload_type === 'BlockedCall') {
    const reason = typeof payload.meta?.reason_for_blocking === 'string' && payload.meta.reason_for_blocking !== '' ? payload.meta.reason_for_blocking : 'no reason was given';
    return { title: 'Nothing to play: the call was blocked', text: `The phone blocked this call (${reason}), so there is no audio.` };
  }
  switch (payload.payload_state) {
    case 'Processed':
    case 'Transferred':
      return undefined;
    case 'Deleted':
      return { title: 'Nothing to play: the recording is deleted', text: 'Restore it to play it again.' };
    case 'Destroyed':
      return { title: 'Nothing to play: the recording was destroyed', text: 'Retention destroyed its content; only its record remains.' };
    case 'Failed':
      return { title: 'Nothing to play: processing failed', text: 'The upload could not be decrypted or did not match its checksum; a payload alert was raised.' };
    case 'Quarantined':
      return { title: 'Nothing to play: quarantined', text: 'The malware scan flagged the upload, so it is never served.' };
    default:
      return { title: 'Not ready to play yet', text: 'The recording is still being uploaded or processed. Come back shortly.' };
  }
}

export function NothingToPlay({ reason }: { reason: { title: string; text: string } }) {
  return (
    <Alert variant="light" color="gray" title={reason.title}>
      {reason.text}
    </Alert>
  );
}
