import { describe, expect, it } from 'vitest';
import { renderSignedIn, userWith } from '../../../testing/render-signed-in.tsx';
import { SupervisionQueue } from './supervision-queue.tsx';

const ignore = () => undefined;

describe('the review queue', () => {
  it('shows the URL’s filters in its form', () => {
    const html = renderSignedIn(
      <SupervisionQueue search={{ state: 'Escalated', group: 'london-equities', device_user_reference: 'du-alice', overdue: true }} onSearch={ignore} />,
      userWith(['supervision:ListItems']),
    );
    expect(html).toMatch(/value="Escalated"/);
    expect(html).toMatch(/value="london-equities"/);
    expect(html).toMatch(/value="du-alice"/);
    const checkedSwitch = /<input[^>]*role="switch"[^>]*checked=""|<input[^>]*checked=""[^>]*role="switch"/;
    expect(html).toMatch(checkedSwitch);
    expect(renderSignedIn(<SupervisionQueue search={{}} onSearch={ignore} />, userWith(['supervision:ListItems']))).not.toMatch(checkedSwitch);
    expect(html).toContain('Clear filters');
  });

  it('offers selection and bulk claim and close only to a role that may review', () => {
    const reviewer = renderSignedIn(<SupervisionQueue search={{}} onSearch={ignore} />, userWith(['supervision:ListItems', 'supervision:ReviewItem']));
    expect(reviewer).toContain('aria-label="Bulk review"');
    expect(reviewer).toContain('Claim selected');
    expect(reviewer).toContain('Close selected…');
    expect(reviewer).toContain('data-requires-action="supervision:ReviewItem"');

    const reader = renderSignedIn(<SupervisionQueue search={{}} onSearch={ignore} />, userWith(['supervision:ListItems']));
    expect(reader).not.toContain('Bulk review');
    expect(reader).not.toContain('Claim selected');
    expect(reader).not.toContain('>Select<');
  });

  it('types the policy in when the role may not list policies, and chooses it from them when it may', () => {
    const typed = renderSignedIn(<SupervisionQueue search={{ policy_reference: 'conduct-risk' }} onSearch={ignore} />, userWith(['supervision:ListItems']));
    expect(typed).toMatch(/placeholder="Policy reference"[^>]*value="conduct-risk"|value="conduct-risk"[^>]*placeholder="Policy reference"/);
    const chosen = renderSignedIn(<SupervisionQueue search={{ policy_reference: 'conduct-risk' }} onSearch={ignore} />, userWith(['supervision:ListItems', 'supervision:ListPolicies']));
    expect(chosen).toMatch(/placeholder="Any policy"/);
    expect(chosen).toMatch(/value="conduct-risk"/);
  });
});
