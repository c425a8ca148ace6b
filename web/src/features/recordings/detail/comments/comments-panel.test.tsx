import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import type { PayloadComment } from '#shared/contract/entities/comments.ts';
import { renderSignedIn, userWith } from '../../../../testing/render-signed-in.tsx';
import { CommentsPanel } from './comments-panel.tsx';

const render = (node: ReactNode, actions: string[]) => renderSignedIn(node, userWith(actions));

const comment: PayloadComment = {
  payload_reference: '01J0000000000000000000REF1',
  comment_id: '01J0000000000000000000CMT1',
  comment_body: 'Kept under a legal hold',
  comment_version: 1,
  raised_by: 'officer@demo.test',
  raised_at: '2026-01-02T10:00:00.000Z',
  is_closed: false,
  payload_type: 'Call',
};

const COMMENT_ACTIONS = ['comments:List', 'comments:Create', 'comments:Update', 'comments:Delete'];

describe('comments panel', () => {
  it('offers the form, Edit and Close to a role that may comment on a recording that takes comments', () => {
    const html = render(<CommentsPanel payloadReference={comment.payload_reference} comments={[comment]} loading={false} spanned={false} />, COMMENT_ACTIONS);
    expect(html).toContain('Add comment');
    expect(html).toContain('aria-label="Edit comment 1"');
    expect(html).toContain('aria-label="Close comment 1"');
  });

  it('offers no form, no Edit and no Close on a recording that takes no more comments, and says why', () => {
    const html = render(
      <CommentsPanel payloadReference={comment.payload_reference} comments={[comment]} loading={false} spanned={false} closedReason="Its content was destroyed." />,
      COMMENT_ACTIONS,
    );
    expect(html).toContain('Kept under a legal hold');
    expect(html).toContain('This recording takes no more comments');
    expect(html).toContain('Its content was destroyed.');
    expect(html).not.toContain('Add comment');
    expect(html).not.toContain('Edit comment 1');
    expect(html).not.toContain('Close comment 1');
  });
});
