import { QueryClient } from '@tanstack/react-query';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { SupervisionPolicy } from '#shared/contract/entities/supervision.ts';
import { AppProviders } from '../../../../app/providers.tsx';
import { policyQueryOptions } from '../../../../features/supervision/api/get-policy.ts';
import { PolicyError } from '../../../../features/supervision/policies/policy-pages.tsx';
import { ApiError } from '../../../../lib/api-error.ts';
import { runLoader, sessionAnswering } from '../../../../testing/detail-route.ts';
import { Route as PolicyRoute } from './$policyReference.tsx';

const REFERENCE = 'conduct';

const policy: SupervisionPolicy = {
  policy_reference: REFERENCE,
  kind: 'Lexicon',
  is_enabled: true,
  scope: { group_conditions: [], device_user_references: [], payload_types: ['SMS'] },
  terms: ['guarantee'],
  sample_minimum: 1,
  review_days: 7,
  policy_version: 1,
  last_apply: { state: 'Running', from: '2026-10-01T00:00:00.000Z', to: '2026-10-31T23:59:59.999Z', started_at: '2026-11-28T10:00:00.000Z', started_by: 'u-1', scanned: 120, raised: 3 },
};

const ACTIONS = ['supervision:ReadPolicy'];

describe("a supervision policy's route", () => {
  it('has the policy (with its apply run) in hand once its loader is done, so the page renders it at once', async () => {
    const queryClient = new QueryClient();
    const session = sessionAnswering(200, policy, ACTIONS);
    await runLoader(PolicyRoute, { queryClient, session }, { policyReference: REFERENCE });
    const key = policyQueryOptions(session, REFERENCE).queryKey;
    expect(queryClient.getQueryData(key)).toEqual(policy);
    expect(queryClient.getQueryState(key)?.status).toBe('success');
  });

  it('keeps a refusal for the page to show under its title with the API message', async () => {
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const session = sessionAnswering(404, { error_code: 404, message: ['params.policy_reference: No policy with that reference'] }, ACTIONS);
    await runLoader(PolicyRoute, { queryClient, session }, { policyReference: REFERENCE });
    const error = queryClient.getQueryState(policyQueryOptions(session, REFERENCE).queryKey)?.error;
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(404);
    const html = renderToString(
      <AppProviders queryClient={queryClient} session={session}>
        <PolicyError reference={REFERENCE} error={error} />
      </AppProviders>,
    );
    expect(html).toContain(`>Policy ${REFERENCE}</h1>`);
    expect(html).toContain('This policy could not be loaded');
    expect((error as Error).message).not.toBe('');
    expect(html).toContain((error as Error).message);
  });
});
