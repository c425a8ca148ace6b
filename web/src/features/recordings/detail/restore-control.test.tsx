import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import type { Payload } from '#shared/contract/entities/payloads.ts';
import { renderSignedIn, userWith } from '../../../testing/render-signed-in.tsx';
import { nothingToPlay } from './nothing-to-play.tsx';
import { RestoreControl } from './restore-control.tsx';

const render = (node: ReactNode, actions: string[]) => renderSignedIn(node, userWith(actions));

const payload = (state: Payload['payload_state'], type: Payload['payload_type'] = 'Call', meta?: Record<string, unknown>): Payload => ({
  device_reference: 'D',
  payload_reference: '01J0000000000000000000REF1',
  payload_state: state,
  payload_type: type,
  is_legacy: false,
  is_late: false,
  updated_by: 'retention',
  ...(meta === undefined ? {} : { meta }),
});

describe('restore and nothing to play', () => {
  it('offers Restore on a deleted recording, disabled with the reason for a role without payloads:Restore', () => {
    const allowed = render(<RestoreControl payload={payload('Deleted')} />, ['payloads:Restore']);
    expect(allowed).toContain('This recording is deleted');
    expect(allowed).toMatch(/<button[^>]*data-requires-action="payloads:Restore"(?![^>]*aria-disabled)[^>]*>/);
    const refused = render(<RestoreControl payload={payload('Deleted')} />, ['payloads:Read']);
    expect(refused).toMatch(/<button[^>]*aria-disabled="true"[^>]*data-requires-action="payloads:Restore"|<button[^>]*data-requires-action="payloads:Restore"[^>]*aria-disabled="true"/);
  });

  it('says a destroyed recording cannot come back, and shows nothing for one that is not deleted', () => {
    const destroyed = render(<RestoreControl payload={payload('Destroyed')} />, ['payloads:Restore']);
    expect(destroyed).toContain('cannot be restored');
    // Why: its destroy period passed and destroying erases the recording; no Restore is offered.
    expect(destroyed).toContain('destroy period had passed');
    expect(destroyed).not.toContain('data-requires-action="payloads:Restore"');
    expect(render(<RestoreControl payload={payload('Processed')} />, ['payloads:Restore'])).not.toContain('Restore');
  });

  it('explains why there is nothing to play', () => {
    expect(nothingToPlay(payload('Processed', 'BlockedCall', { reason_for_blocking: 'On the blocked list' }))?.text).toContain('On the blocked list');
    expect(nothingToPlay(payload('Processed', 'AbortedCall'))?.title).toBe('Nothing to play: the call was aborted');
    expect(nothingToPlay(payload('Quarantined'))?.title).toContain('quarantined');
    expect(nothingToPlay(payload('Processed'))).toBeUndefined();
  });
});
