import { Badge, Group, SimpleGrid, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import type { Device } from '#shared/contract/entities/devices.ts';
import { formatDateTime } from '../../lib/format.ts';
import { deviceStatus, holderName, phoneNumbersText, STATUS_COLOURS } from './device-labels.ts';
import { DeviceUserLink } from './links.tsx';

/** The device's fields as a description list. */
export function DeviceDetails({ device }: { device: Device }) {
  const status = deviceStatus(device);
  const fields: [string, ReactNode][] = [
    [
      'Status',
      <Group gap={4} key="status">
        <Badge miw="max-content" color={STATUS_COLOURS[status]} variant="light" tt="none">
          {status}
        </Badge>
        {device.is_legacy && (
          <Badge miw="max-content" color="gray" variant="outline" tt="none">
            Legacy
          </Badge>
        )}
      </Group>,
    ],
    [
      'Device user',
      device.device_user_reference === undefined ? (
        '—'
      ) : (
        <DeviceUserLink deviceUserReference={device.device_user_reference} key="user">
          {holderName(device) ? `${holderName(device)} (${device.device_user_reference})` : device.device_user_reference}
        </DeviceUserLink>
      ),
    ],
    ['Email', device.email],
    ['Group', device.group],
    ['Model', device.model],
    ['OS version', device.os_version],
    ['App version', device.app_version],
    ['Serial number', device.serial_number],
    ['Phone numbers', phoneNumbersText(device) || undefined],
    ['IMEIs', device.imeis.join(', ') || undefined],
    ['Services', device.services.join(', ') || undefined],
    ['Activated', device.activated_at && formatDateTime(device.activated_at)],
    ['Deactivated', device.deactivation_date && formatDateTime(device.deactivation_date)],
    ['Last seen', device.last_seen && formatDateTime(device.last_seen)],
    ['Installation id', device.installation_id],
    ['Updated', device.updated_at && `${formatDateTime(device.updated_at)}${device.updated_by ? ` by ${device.updated_by}` : ''}`],
  ];
  return (
    <SimpleGrid component="dl" cols={{ base: 1, sm: 2, lg: 3 }} spacing="md" verticalSpacing="sm" m={0}>
      {fields.map(([label, value]) => (
        <div key={label}>
          <Text component="dt" size="sm" c="dimmed">
            {label}
          </Text>
          <Text component="dd" m={0} style={{ overflowWrap: 'anywhere' }}>
            {value === undefined || value === '' ? '—' : value}
          </Text>
        </div>
      ))}
    </SimpleGrid>
  );
}
