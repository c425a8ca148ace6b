import { describe, expect, it } from 'vitest';
import { InternalError } from '../../errors.ts';
import { keys } from '../keys.ts';
import { commentToItem, readComment, toPayloadComment, type CommentItem } from './comment.ts';

const comment: CommentItem = {
  comment_id: '01J00000000000000000000COM',
  comment_body: 'Caller names the account',
  raised_by: 'ada@acme.test',
  raised_at: '2026-01-02T03:04:05.000Z',
  comment_version: 1,
  is_closed: false,
  comment_duration: { start_time: 5, duration: 10 },
  payload_reference: 'p1',
  payload_type: 'Call',
  group: 'North',
};

describe('comment item', () => {
  it('round-trips: in the payload partition and on the tenant list, read back, and as the contract shows it', () => {
    const item = commentToItem('acme', comment);
    expect(item).toMatchObject(keys.comment.item('acme', 'p1', { commentId: comment.comment_id, raisedAt: comment.raised_at }));
    expect(toPayloadComment(readComment(item))).toEqual(comment);
  });

  it('shows a comment stored without is_closed as open', () => {
    const { is_closed: _closed, ...old } = comment;
    expect(toPayloadComment(readComment(commentToItem('acme', old))).is_closed).toBe(false);
  });

  it('refuses a malformed item, naming the path', () => {
    const item = { ...commentToItem('acme', comment), comment_version: '2' };
    expect(() => readComment(item)).toThrow(InternalError);
    expect(() => readComment(item)).toThrow(/Comment item .*comment_version: /);
  });
});
