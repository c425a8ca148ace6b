import { Alert } from '@mantine/core';
import { CatchBoundary } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { PageHeader } from '../../components/page/page-header.tsx';
import { ApiError } from '../../lib/api-error.ts';
import { DeviceLocationLink } from './device-detail-view.tsx';

/** What a device's page is, under its title. */
export const DEVICE_PAGE_DESCRIPTION = "The device's details, the commands sent to it, who held it and what it reported.";

/** The device could not be fetched: not in the organisation (404), or the API's own message (403, …). */
export function DeviceError({ deviceReference, error }: { deviceReference: string; error: unknown }) {
  const missing = error instanceof ApiError && error.status === 404;
  return (
    <>
      <PageHeader title="Device" description={DEVICE_PAGE_DESCRIPTION} actions={<DeviceLocationLink deviceReference={deviceReference} />} />
      <Alert color="red" title={missing ? 'Device not found' : 'The device could not be loaded'}>
        {missing ? `There is no device ${deviceReference} in your organisation.` : error instanceof Error ? error.message : ''}
      </Alert>
    </>
  );
}

/**
 * The device page's own boundary: its route's loader has fetched the device (ensureQueryData) and a refused fetch stays
 * in the query cache, so the page's suspense read throws it here and it shows under the page's title, as before (a
 * route's errorComponent would be a chunk of its own, as on a recording's page).
 */
export function DeviceBoundary({ deviceReference, children }: { deviceReference: string; children: ReactNode }) {
  return (
    <CatchBoundary getResetKey={() => deviceReference} errorComponent={({ error }) => <DeviceError deviceReference={deviceReference} error={error} />}>
      {children}
    </CatchBoundary>
  );
}
