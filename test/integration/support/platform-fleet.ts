import { deviceToItem } from '#core/store/entities/device.ts';
import { deviceUserToItem } from '#core/store/entities/device-user.ts';
import { keys } from '#core/store/keys.ts';
import { DeviceUser } from '#shared/contract/entities/device-users.ts';
import { CRAFTED_PLATFORM } from '../../../scripts/migration/sample-rows.ts';
import type { RunTenant } from './run-tenant.ts';

/** A group, an onboarded user and an activated device that Verity manages itself (not migrated), as the crafted export expects. */
export async function platformFleet(into: RunTenant): Promise<void> {
  const { client, deps } = into;
  const now = new Date().toISOString();
  await deps.table.put({ ...keys.group.item(client, CRAFTED_PLATFORM.group), client, group_reference: CRAFTED_PLATFORM.group, tags: [], updated_at: now });
  const user = DeviceUser.parse({ client, device_user_reference: CRAFTED_PLATFORM.deviceUser, group: CRAFTED_PLATFORM.group, services: ['calls'], is_active: true, onboard_date: now, updated_at: now });
  await deps.table.put(deviceUserToItem(client, user));
  await deps.table.put(
    deviceToItem(client, {
      client,
      device_reference: CRAFTED_PLATFORM.device,
      device_user_reference: CRAFTED_PLATFORM.deviceUser,
      group: CRAFTED_PLATFORM.group,
      services: ['calls'],
      imeis: [],
      is_deactivated: false,
      is_legacy: false,
      activated_at: now,
      phone_numbers: [],
      updated_at: now,
    }),
  );
}
