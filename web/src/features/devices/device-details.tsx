import { Badge, Group } from '@mantine/core';
import type { Device } from '#shared/contract/entities/devices.ts';
import { formatDateTime } from '../../lib/format.ts';
import { deviceStatus, holderName, phoneNumbersText, STATUS_COLOURS } from '../../lib/device-labels.ts';
import { DeviceUserLink } from './links.tsx';
import { FactList, type Fact } from '../../components/data/fact-list.tsx';

/** The device's fields as a description list. */
export function DeviceDetails({ device }: { device: Device }) {
  const status = deviceStatus(device);
  const fields: Fact[] = [
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
  return <FactList facts={fields} />;
}
