import { QueryClient } from '@tanstack/react-query';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { DeviceUser } from '#shared/contract/entities/device-users.ts';
import type { SupervisionItemDetail } from '#shared/contract/entities/supervision.ts';
import { AppProviders } from '../../../app/providers.tsx';
import { getSupervisedPerson } from '../../../features/supervision/api/get-device-user.ts';
import { supervisionItemQueryOptions } from '../../../features/supervision/api/get-item.ts';
import { SupervisionItemPage } from '../../../features/supervision/item/item-detail.tsx';
import { sessionQueryKey } from '../../../lib/api-hooks.ts';
import type { Session } from '../../../lib/session/session.ts';
import { userWith } from '../../../testing/render-signed-in.tsx';
import { runLoader, sessionAnswering } from '../../../testing/detail-route.ts';
import { testSession } from '../../../testing/test-session.ts';
import { Route as ItemRoute } from './$item_reference.tsx';

const REFERENCE = '01J0000000000000000000ITEM';
const AT = '2026-11-20T10:00:00.000Z';
const REVIEWER = { reference: 'ann@demo.test', kind: 'user' as const, name: 'Ann Analyst', email: 'ann@demo.test' };

const item: SupervisionItemDetail = {
  item_reference: REFERENCE,
  payload_type: 'SMS',
  payload_time: AT,
  device_user_reference: 'du-sam',
  device_user_name: 'Sam Seller',
  hits: [
    { policy_reference: 'conduct-risk', kind: 'Lexicon', term: 'guarantee', field: 'text', matches: [{ start: 2, end: 11 }], raised_at: AT },
    { policy_reference: 'call-sampling', kind: 'Sampling', matches: [], sample_value: 0.031_25, raised_at: AT },
  ],
  state: 'Claimed',
  assignee: 'ann@demo.test',
  assignee_actor: REVIEWER,
  due_at: '2026-11-25T10:00:00.000Z',
  is_overdue: true,
  raised_at: AT,
  updated_at: AT,
  item_version: 2,
  history: [
    { event: 'raise', at: AT, by: 'system:payload-processing', to_state: 'Open', policy_reference: 'conduct-risk', is_bulk: false },
    { event: 'claim', at: '2026-11-20T11:00:00.000Z', by: 'ann@demo.test', by_actor: REVIEWER, from_state: 'Open', to_state: 'Claimed', assignee: 'ann@demo.test', assignee_actor: REVIEWER, is_bulk: true },
    {
      event: 'assign',
      at: '2026-11-20T11:30:00.000Z',
      by: 'ann@demo.test',
      by_actor: REVIEWER,
      from_state: 'Claimed',
      to_state: 'Claimed',
      assignee: 'demo-bob',
      assignee_actor: { reference: 'demo-bob', kind: 'user', name: 'Bob Boss', email: 'bob@demo.test' },
      is_bulk: false,
    },
  ],
};

/** An id token (unsigned: the portal only reads it to label) naming `email`. */
const tokenFor = (email: string) => `h.${Buffer.from(JSON.stringify({ sub: 'ann', email })).toString('base64url')}.s`;

function signedIn(actions: readonly string[], email: string): Session {
  return testSession({ client: 'demo', idToken: tokenFor(email), expiresAt: Date.now() + 3_600_000, user: userWith(actions) });
}

/** The page as it renders once its loader has the item (and the supervised person, when the role may read them). */
function renderPage(session: Session, person?: Partial<DeviceUser>) {
  const queryClient = new QueryClient();
  queryClient.setQueryData(supervisionItemQueryOptions(session, REFERENCE).queryKey, item);
  if (person !== undefined) {
    const key = sessionQueryKey(getSupervisedPerson, { client: 'demo' }, { params: { device_user_reference: 'du-sam' } });
    queryClient.setQueryData(key, { device_user_reference: 'du-sam', is_active: true, services: [], expected_device_count: 1, is_legacy: false, ...person });
  }
  return renderToString(
    <AppProviders queryClient={queryClient} session={session}>
      <SupervisionItemPage itemReference={REFERENCE} />
    </AppProviders>,
  );
}

const REVIEW = ['supervision:ReadItem', 'supervision:ReviewItem', 'deviceUsers:Read', 'payloads:Play', 'payloads:Read'];

describe("a review item's route", () => {
  it('has the item in hand once its loader is done, so the page renders it at once', async () => {
    const queryClient = new QueryClient();
    const session = sessionAnswering(200, item, REVIEW);
    await runLoader(ItemRoute, { queryClient, session }, { item_reference: REFERENCE });
    expect(queryClient.getQueryState(supervisionItemQueryOptions(session, REFERENCE).queryKey)?.status).toBe('success');
  });

  it('shows a refusal under the page title with the API message, rather than failing the navigation', async () => {
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const session = sessionAnswering(404, { error_code: 404, message: ['params.item_reference: No review item with that reference'] }, REVIEW);
    await runLoader(ItemRoute, { queryClient, session }, { item_reference: REFERENCE });
    expect(queryClient.getQueryState(supervisionItemQueryOptions(session, REFERENCE).queryKey)?.status).toBe('error');
  });
});

describe("a review item's page", () => {
  it('names the person, the hits with the sampling value, the history by name with bulk marked, and the deadline passed', () => {
    const html = renderPage(signedIn(REVIEW, 'ann@demo.test'), { email: 'sam@demo.test' });
    expect(html).toContain('Review: SMS of Sam Seller');
    expect(html).toContain('Term “guarantee”');
    expect(html).toContain('Sampled (value 0.031250)');
    expect(html).toContain('Ann Analyst (ann@demo.test)');
    expect(html).toContain('Verity (payload processing job)');
    expect(html).toContain('Open → Claimed');
    expect(html).toMatch(/>bulk</);
    // An assignment names whom to; a claim is its claimer's own and says only that.
    expect(html).toContain('Assigned<!-- --> to Bob Boss (bob@demo.test)');
    expect(html).not.toContain('Claimed<!-- --> to');
    expect(html).toContain('Overdue');
  });

  it('offers release, assign, escalate and the disposition form on a claimed item of someone else', () => {
    const html = renderPage(signedIn(REVIEW, 'ann@demo.test'), { email: 'sam@demo.test' });
    for (const label of ['Release', 'Assign…', 'Escalate…', 'Close item']) expect(html).toContain(`>${label}<`);
    expect(html).not.toContain('>Claim<');
    expect(html).not.toContain('>Reopen…<');
    expect(html).toContain('Close with a disposition');
    expect(html).not.toContain('You cannot close this item');
  });

  it('offers no Close on the reviewer’s own communications (same e-mail, any case) and says why', () => {
    const html = renderPage(signedIn(REVIEW, 'ann@demo.test'), { email: 'Ann@Demo.TEST' });
    expect(html).toContain('You cannot close this item');
    expect(html).toContain('It is about your own communications');
    expect(html).not.toContain('Close item');
    // The other acts stay: another reviewer can be assigned.
    expect(html).toContain('>Assign…<');
  });

  it('offers no review act to a role that may only read items', () => {
    const html = renderPage(signedIn(['supervision:ReadItem'], 'viewer@demo.test'));
    for (const label of ['Claim', 'Release', 'Assign…', 'Escalate…', 'Close item', 'Reopen…']) expect(html).not.toContain(`>${label}<`);
    expect(html).toContain('Your roles do not allow reviewing supervision items.');
    // And no message text either: viewing recordings is its own permission.
    expect(html).toContain('The message&#x27;s text is not open to you');
  });
});
