import { QueryClient } from '@tanstack/react-query';
import { createMemoryHistory, createRootRoute, createRouter, RouterProvider } from '@tanstack/react-router';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { Device } from '#shared/contract/entities/devices.ts';
import { AppProviders } from '../../../../app/providers.tsx';
import { Route as DeviceRoute } from './index.tsx';
import { runLoader, sessionAnswering } from '../../../../testing/detail-route.ts';
import type { Session } from '../../../../lib/session/session.ts';
import { ApiError } from '../../../../lib/api-error.ts';
import { deviceQueryOptions } from '../../../../features/devices/api/get-device.ts';
import { DeviceError } from '../../../../features/devices/device-error.tsx';

const REFERENCE = 'DEV-1';

const device: Device = {
  device_reference: REFERENCE,
  services: ['calls'],
  imeis: [],
  is_deactivated: false,
  is_legacy: false,
  phone_numbers: [],
  model: 'Pixel 8',
};

const ACTIONS = ['devices:Read'];

/** The error view as the page's boundary shows it (its header links to the GPS page, so it renders inside a router). */
async function renderError(queryClient: QueryClient, session: Session, error: unknown) {
  const router = createRouter({
    routeTree: createRootRoute({ component: () => <DeviceError deviceReference={REFERENCE} error={error} /> }),
    history: createMemoryHistory({ initialEntries: ['/'] }),
  });
  await router.load();
  return renderToString(
    <AppProviders queryClient={queryClient} session={session}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
}

/** Runs the loader against an API answering `status` and `body`; the error the page then reads. */
async function refusal(status: number, body: object) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const session = sessionAnswering(status, body, ACTIONS);
  await runLoader(DeviceRoute, { queryClient, session }, { deviceReference: REFERENCE });
  const error = queryClient.getQueryState(deviceQueryOptions(session, REFERENCE).queryKey)?.error;
  return { queryClient, session, error };
}

describe("a device's route", () => {
  it('has the device in hand once its loader is done, so the page renders it at once', async () => {
    const queryClient = new QueryClient();
    const session = sessionAnswering(200, device, ACTIONS);
    await runLoader(DeviceRoute, { queryClient, session }, { deviceReference: REFERENCE });
    const key = deviceQueryOptions(session, REFERENCE).queryKey;
    expect(queryClient.getQueryData(key)).toEqual(device);
    // What the page reads with useSuspenseQuery is there, fresh: it renders without suspending or asking again.
    expect(queryClient.getQueryState(key)?.status).toBe('success');
  });

  it('keeps a 404 for the page to say the device is not in the organisation, rather than failing the navigation', async () => {
    const { queryClient, session, error } = await refusal(404, { error_code: 404, message: ['params.device_reference: No device with that reference'] });
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(404);
    const html = await renderError(queryClient, session, error);
    expect(html).toContain('>Device</h1>');
    expect(html).toContain('Device not found');
    expect(html).toContain(`There is no device ${REFERENCE} in your organisation.`);
    expect(html).toContain('Device location');
  });

  it('keeps any other refusal for the page to show with the API message', async () => {
    const { queryClient, session, error } = await refusal(403, { error_code: 403, message: ['Not allowed: devices:Read'] });
    expect((error as ApiError).status).toBe(403);
    const html = await renderError(queryClient, session, error);
    expect(html).toContain('The device could not be loaded');
    expect(html).toContain((error as Error).message);
    expect((error as Error).message).not.toBe('');
  });
});
