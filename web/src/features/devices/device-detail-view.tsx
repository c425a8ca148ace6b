import { Paper, Stack, Title } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import type { DeviceCommandState } from '#shared/constants/devices.ts';
import { PermittedButton } from '../../components/access/permitted-button.tsx';
import { useDevice } from './api/get-device.ts';
import { listDeviceGps } from './api/list-device-gps.ts';
import { DeactivateDevice } from './deactivate-device.tsx';
import { DeviceCommands } from './device-commands.tsx';
import { DeviceDetails } from './device-details.tsx';
import { DeviceHistoryList } from './device-history.tsx';
import { DeviceTelemetryList } from './device-telemetry.tsx';
import type { DeviceDetailSearch } from './filters.ts';
import { LegalHoldNotice } from '../../components/data/legal-hold-badge.tsx';
import { SendCommandForm } from './send-command-form.tsx';

/** The device's GPS page: an action of the page header, also when the device could not be loaded. */
export function DeviceLocationLink({ deviceReference }: { deviceReference: string }) {
  return (
    <PermittedButton
      action={listDeviceGps.action}
      variant="default"
      renderRoot={(props) => <Link {...props} to="/dashboard/devices/$deviceReference/gps" params={{ deviceReference }} />}
    >
      Device location
    </PermittedButton>
  );
}

/** The actions of the page header: the GPS page and, for an active device, Deactivate. */
export function DeviceActions({ deviceReference }: { deviceReference: string }) {
  const device = useDevice(deviceReference);
  return (
    <>
      <DeviceLocationLink deviceReference={deviceReference} />
      {!device.data.is_deactivated && <DeactivateDevice deviceReference={deviceReference} />}
    </>
  );
}

/**
 * One device: its fields, commands (with the send form), history and telemetry. Its route's loader has fetched the
 * device; a refused fetch shows from the page's boundary (device-error.tsx).
 */
export function DeviceDetailView({
  deviceReference,
  search,
  onSearch,
  recordings,
  completeness,
}: {
  deviceReference: string;
  search: DeviceDetailSearch;
  onSearch: (next: DeviceDetailSearch) => void;
  /** The device's recordings list (the route composes it from the recordings feature). */
  recordings?: ReactNode;
  /** The device's capture completeness panel (the route composes it from the completeness feature). */
  completeness?: ReactNode;
}) {
  const device = useDevice(deviceReference);
  return (
    <Stack gap="xl">
      <LegalHoldNotice heldBy={device.data.held_by} what="device" />
      <Section title="Details">
        <DeviceDetails device={device.data} />
      </Section>
      {completeness}
      {recordings !== undefined && <Section title="Recordings">{recordings}</Section>}
      <Section title="Commands">
        <Stack gap="lg">
          <DeviceCommands
            deviceReference={deviceReference}
            state={search.command_state}
            onState={(state: DeviceCommandState | undefined) => onSearch({ ...search, command_state: state })}
          />
          <SendCommandForm deviceReference={deviceReference} disabled={device.data.is_deactivated} />
        </Stack>
      </Section>
      <Section title="History">
        <DeviceHistoryList deviceReference={deviceReference} />
      </Section>
      <Section title="Telemetry">
        <DeviceTelemetryList
          deviceReference={deviceReference}
          from={search.telemetry_from}
          to={search.telemetry_to}
          onRange={({ from, to }) => onSearch({ ...search, telemetry_from: from, telemetry_to: to })}
        />
      </Section>
    </Stack>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  const id = `device-${title.toLowerCase()}`;
  return (
    <Paper component="section" withBorder p="md" aria-labelledby={id}>
      <Title order={2} size="h4" id={id} mb="sm">
        {title}
      </Title>
      {children}
    </Paper>
  );
}
