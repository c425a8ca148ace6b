import { QueryClient } from '@tanstack/react-query';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { DeviceUser } from '#shared/contract/entities/device-users.ts';
import { AppProviders } from '../../../../app/providers.tsx';
import { Route as DeviceUserRoute } from './$deviceUserReference.tsx';
import { runLoader, sessionAnswering } from '../../../../testing/detail-route.ts';
import { ApiError } from '../../../../lib/api-error.ts';
import { deviceUserQueryOptions } from '../../../../features/device-users/api/get-device-user.ts';
import { DeviceUserError } from '../../../../features/device-users/device-user-error.tsx';

const REFERENCE = 'ada-1';

const deviceUser: DeviceUser = {
  device_user_reference: REFERENCE,
  services: ['calls'],
  expected_device_count: 1,
  first_name: 'Ada',
  surname: 'Lovelace',
  is_active: true,
  is_legacy: false,
};

const ACTIONS = ['users:Read'];

describe("a device user's route", () => {
  it('has the device user in hand once its loader is done, so the page renders it at once', async () => {
    const queryClient = new QueryClient();
    const session = sessionAnswering(200, deviceUser, ACTIONS);
    await runLoader(DeviceUserRoute, { queryClient, session }, { deviceUserReference: REFERENCE });
    const key = deviceUserQueryOptions(session, REFERENCE).queryKey;
    expect(queryClient.getQueryData(key)).toEqual(deviceUser);
    // What the page reads with useSuspenseQuery is there, fresh: it renders without suspending or asking again.
    expect(queryClient.getQueryState(key)?.status).toBe('success');
  });

  it('keeps a refusal for the page to show under its title with the API message, rather than failing the navigation', async () => {
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const session = sessionAnswering(404, { error_code: 404, message: ['params.device_user_reference: No device user with that reference'] }, ACTIONS);
    await runLoader(DeviceUserRoute, { queryClient, session }, { deviceUserReference: REFERENCE });
    const error = queryClient.getQueryState(deviceUserQueryOptions(session, REFERENCE).queryKey)?.error;
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(404);
    const html = renderToString(
      <AppProviders queryClient={queryClient} session={session}>
        <DeviceUserError reference={REFERENCE} error={error} />
      </AppProviders>,
    );
    expect(html).toContain(`>Device user ${REFERENCE}</h1>`);
    expect(html).toContain('This device user could not be loaded');
    expect(html).toContain((error as Error).message);
    expect((error as Error).message).not.toBe('');
  });
});
