import { QueryClient } from '@tanstack/react-query';
import { createMemoryHistory, createRootRoute, createRouter, RouterProvider } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { ErasureRequest } from '#shared/contract/entities/erasure-requests.ts';
import { AppProviders } from '../../app/providers.tsx';
import { renderSignedIn, userWith, type SignedInUser } from '../../testing/render-signed-in.tsx';
import { testSession } from '../../testing/test-session.ts';
import { ErasureReport, reportSummary } from './erasure-report.tsx';
import { ReviewPanel } from './review-panel.tsx';

const decided: ErasureRequest = {
  client: 'demo',
  erasure_request_reference: '01M8K836WT6A0AAGFM52CS3R4A',
  device_user_reference: 'du-chloe',
  device_user_name: 'Chloe Carter',
  requester: { type: 'Representative', name: 'Sam Lee' },
  received_at: '2026-11-20T00:00:00.000Z',
  channel: 'Letter',
  erasure_state: 'Decided',
  outcomes: [
    {
      kind: 'GpsFixes',
      record_type: 'GpsData',
      found: 40,
      to_erase: 30,
      erased: 0,
      kept: [{ exception: 'LegalObligation', article: '17(3)(b)', count: 10, rule: 'GPS fixes are kept 1 year from when they were recorded', kept_until: '2027-03-04T10:00:00.000Z' }],
    },
    {
      kind: 'Recordings',
      record_type: 'PayloadData',
      found: 5,
      to_erase: 0,
      erased: 0,
      kept: [{ exception: 'LegalHold', article: '17(3)(e)', count: 5, holds: [{ target_type: 'DeviceUser', target: 'du-chloe' }] }],
    },
  ],
  decided_at: '2026-11-29T09:05:00.000Z',
  created_at: '2026-11-29T09:00:00.000Z',
  created_by: 'u-dana',
  created_by_actor: { reference: 'u-dana', kind: 'user', name: 'Dana Admin', email: 'admin@demo.test' },
};

/** React's server render splits adjacent text with `<!-- -->`; the tests read the text as a person would. */
const text = (html: string) => html.replaceAll('<!-- -->', '');

const as = (reference: string, actions: readonly string[]): SignedInUser => ({ ...userWith(actions), reference });

/** Server-renders `node` for `user` inside a router (the report links to the legal holds it names). */
async function renderRouted(node: ReactNode, user: SignedInUser): Promise<string> {
  const router = createRouter({ routeTree: createRootRoute({ component: () => node }), history: createMemoryHistory({ initialEntries: ['/'] }) });
  await router.load();
  return text(
    renderToString(
      <AppProviders queryClient={new QueryClient()} session={testSession({ client: 'demo', idToken: 't', user })}>
        <RouterProvider router={router} />
      </AppProviders>,
    ),
  );
}

describe('the review of a decided request', () => {
  it('offers Approve and Reject with a reason to a second person who may review', () => {
    const html = text(renderSignedIn(<ReviewPanel request={decided} />, as('u-jordan', ['erasureRequests:Review'])));
    expect(html).toContain('Approve and erase');
    expect(html).toContain('>Reject<');
    expect(html).toContain('Approving erases the 30 records no exception keeps; 15 are kept');
  });

  it('offers no button to the person who recorded it, and says why', () => {
    const html = text(renderSignedIn(<ReviewPanel request={decided} />, as('u-dana', ['erasureRequests:Review'])));
    expect(html).not.toContain('Approve and erase');
    expect(html).toContain('You recorded this request, so you cannot review it');
  });

  it('offers no button to a role that may not review, and says why', () => {
    const html = text(renderSignedIn(<ReviewPanel request={decided} />, as('u-jordan', ['erasureRequests:Get'])));
    expect(html).not.toContain('Approve and erase');
    expect(html).toContain('Your roles do not allow reviewing erasure requests');
  });

  it('shows nothing once reviewed or while still deciding', () => {
    for (const state of ['Erasing', 'Deciding'] as const) {
      const html = text(renderSignedIn(<ReviewPanel request={{ ...decided, erasure_state: state }} />, as('u-jordan', ['erasureRequests:Review'])));
      expect(html).not.toContain('data-testid="erasure-review"');
    }
    expect(renderSignedIn(<ReviewPanel request={decided} />, as('u-jordan', ['erasureRequests:Review']))).toContain('data-testid="erasure-review"');
  });
});

describe('the report for the person', () => {
  const completed: ErasureRequest = {
    ...decided,
    erasure_state: 'Completed',
    outcomes: decided.outcomes.map((outcome) =>
      outcome.kind === 'GpsFixes' ? { ...outcome, erased: 30, erased_from: '2025-01-03T08:00:00.000Z', erased_to: '2025-02-02T18:00:00.000Z' } : outcome,
    ),
    review: { decision: 'Approve', reason: 'Checked against the letter', reviewed_by: 'u-jordan', reviewed_by_actor: { reference: 'u-jordan', kind: 'user', name: 'Jordan Approver', email: 'approver@demo.test' }, reviewed_at: '2026-11-29T10:00:00.000Z' },
    completed_at: '2026-11-29T10:02:00.000Z',
  };

  it('lists what was erased with its dates and what is kept, under which exception and until when, and who approved', async () => {
    const html = await renderRouted(<ErasureReport request={completed} person="Chloe Carter (du-chloe)" />, as('u-jordan', []));
    expect(html).toContain('Erasure report for Chloe Carter (du-chloe)');
    expect(html).toContain('30, from 3 Jan 2025 to 2 Feb 2025');
    expect(html).toContain('10 kept: the law requires keeping them until 4 Mar 2027 (GDPR Art 17(3)(b)). GPS fixes are kept 1 year from when they were recorded.');
    expect(html).toContain('5 kept: needed for legal claims, under the legal hold on device user du-chloe (GDPR Art 17(3)(e))');
    expect(html).toContain('by Jordan Approver (approver@demo.test): “Checked against the letter”');
    // The picture: erased beside kept for each kind with records, summarised for a screen reader.
    expect(html).toContain('Erased and kept, by kind of record: GPS fixes Erased 30, Kept 10; Recordings Erased 0, Kept 5.');
    expect(html).toContain('data-erasure-report');
    expect(html).toContain('See the legal hold on device user du-chloe');
  });

  it('begins with what was asked and the totals, in words that match the state', () => {
    expect(reportSummary(completed, 'Chloe Carter (du-chloe)')).toBe(
      'A representative: Sam Lee asked on 20 Nov 2026 (letter) for the personal data of Chloe Carter (du-chloe) to be erased. 30 records were erased and 15 are kept, each under the exception named below, until the date given.',
    );
    expect(reportSummary(decided, 'Chloe Carter')).toContain('The decision marks 30 records to be erased and keeps 15');
    expect(reportSummary({ ...decided, erasure_state: 'Rejected' }, 'Chloe Carter')).toContain('nothing was erased');
    expect(reportSummary({ ...decided, erasure_state: 'Failed' }, 'Chloe Carter')).toContain('The decision could not be finished: nothing was erased.');
    const one = { ...completed, outcomes: [{ kind: 'PersonalFields' as const, record_type: 'DeviceUserData' as const, found: 2, to_erase: 1, erased: 1, kept: [{ exception: 'LegalObligation' as const, article: '17(3)(b)', count: 1 }] }] };
    expect(reportSummary(one, 'Chloe Carter')).toContain('1 record was erased and 1 is kept');
  });
});
