import { describe, expect, it } from 'vitest';
import type { PayloadComment } from '#shared/contract/entities/comments.ts';
import { renderSignedIn, userWith } from '../../testing/render-signed-in.tsx';
import { commentHistory, commentHistoryReference } from './comment-history.tsx';
import { RecordHistory } from './record-history.tsx';
import { legalHoldHistoryReference } from './record-references.ts';

const comment: PayloadComment = {
  payload_reference: '01J0000000000000000000REF1',
  comment_id: '01J0000000000000000000CMT1',
  comment_body: 'Kept under a legal hold',
  comment_version: 3,
  raised_by: 'officer@demo.test',
  raised_at: '2026-01-02T10:00:00.000Z',
  is_closed: false,
  payload_type: 'Call',
};

describe('History', () => {
  it('is offered to a role that may read both the history and the record', () => {
    const html = renderSignedIn(<RecordHistory entity="role" reference="auditors" readAction="roles:Read" name="role auditors" />, userWith(['activities:List', 'roles:Read']));
    expect(html).toContain('aria-label="History of role auditors"');
  });

  it('is not offered when the role lacks the history read or the record’s own read (the server would refuse)', () => {
    for (const actions of [['roles:Read'], ['activities:List'], []]) {
      const html = renderSignedIn(<RecordHistory entity="role" reference="auditors" readAction="roles:Read" name="role auditors" />, userWith(actions));
      expect(html).not.toContain('History');
    }
  });

  it('asks a comment’s history by the recording’s and the comment’s references, gated on reading comments', () => {
    expect(commentHistoryReference(comment)).toBe('01J0000000000000000000REF1~01J0000000000000000000CMT1');
    expect(renderSignedIn(<>{commentHistory(comment, 2)}</>, userWith(['activities:List', 'comments:List']))).toContain('aria-label="History of comment 2"');
    expect(renderSignedIn(<>{commentHistory(comment, 2)}</>, userWith(['activities:List']))).not.toContain('History');
  });

  it('asks a legal hold’s history by whom it holds, gated on listing holds', () => {
    expect(legalHoldHistoryReference({ target_type: 'DeviceUser', target: 'ada-1' })).toBe('DeviceUser~ada-1');
    const history = <RecordHistory entity="legal-hold" reference="DeviceUser~ada-1" readAction="legalHolds:List" name="the hold on device user ada-1" />;
    expect(renderSignedIn(history, userWith(['activities:List', 'legalHolds:List']))).toContain('aria-label="History of the hold on device user ada-1"');
    expect(renderSignedIn(history, userWith(['legalHolds:List']))).not.toContain('History');
  });
});
