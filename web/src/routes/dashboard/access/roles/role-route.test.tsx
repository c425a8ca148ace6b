import { QueryClient } from '@tanstack/react-query';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { Role } from '#shared/contract/entities/roles.ts';
import { AppProviders } from '../../../../app/providers.tsx';
import { Route as RoleRoute } from './$roleReference.tsx';
import { runLoader, sessionAnswering } from '../../../../testing/detail-route.ts';
import { ApiError } from '../../../../lib/api-error.ts';
import { roleQueryOptions } from '../../../../features/access/api/get-role.ts';
import { RoleError } from '../../../../features/access/role-error.tsx';

const REFERENCE = 'auditor';

const role: Role = {
  client: 'demo',
  role_reference: REFERENCE,
  permissions: [{ actions_matching: 'payloads:List' }],
  payload_types: ['SMS'],
  cidr_ranges: [],
  alert_permissions: { ops_read: false, ops_write: false, sec_read: false, sec_write: false },
  is_alertable: false,
  is_system: false,
};

const ACTIONS = ['roles:Read'];

describe("a role's route", () => {
  it('has the role in hand once its loader is done, so the page renders it at once', async () => {
    const queryClient = new QueryClient();
    const session = sessionAnswering(200, role, ACTIONS);
    await runLoader(RoleRoute, { queryClient, session }, { roleReference: REFERENCE });
    const key = roleQueryOptions(session, REFERENCE).queryKey;
    expect(queryClient.getQueryData(key)).toEqual(role);
    // What the page reads with useSuspenseQuery is there, fresh: it renders without suspending or asking again.
    expect(queryClient.getQueryState(key)?.status).toBe('success');
  });

  it('keeps a refusal for the page to show under its title with the API message, rather than failing the navigation', async () => {
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const session = sessionAnswering(404, { error_code: 404, message: ['params.role_reference: No role with that reference'] }, ACTIONS);
    await runLoader(RoleRoute, { queryClient, session }, { roleReference: REFERENCE });
    const error = queryClient.getQueryState(roleQueryOptions(session, REFERENCE).queryKey)?.error;
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(404);
    const html = renderToString(
      <AppProviders queryClient={queryClient} session={session}>
        <RoleError reference={REFERENCE} error={error} />
      </AppProviders>,
    );
    expect(html).toContain(`>Role ${REFERENCE}</h1>`);
    expect(html).toContain('This role could not be loaded');
    expect(html).toContain((error as Error).message);
    expect((error as Error).message).not.toBe('');
  });
});
