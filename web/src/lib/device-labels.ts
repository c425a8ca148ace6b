import type { Device } from '#shared/contract/entities/devices.ts';

export type DeviceStatus = 'Active' | 'Pending' | 'Deactivated';

/**
 * A device's state in words (spec point 4): deactivated (by hand or for not being seen) wins; a device that has
 * never activated is pending; otherwise it is active. Shown as text, never by colour alone.
 */
export function deviceStatus(device: Pick<Device, 'is_deactivated' | 'activated_at'>): DeviceStatus {
  if (device.is_deactivated) return 'Deactivated';
  if (device.activated_at === undefined) return 'Pending';
  return 'Active';
}

export const STATUS_COLOURS: Record<DeviceStatus, string> = { Active: 'green', Pending: 'yellow', Deactivated: 'gray' };

/** The device user's name as the device record copies it, or undefined when it holds none. */
export function holderName(device: Pick<Device, 'first_name' | 'surname'>): string | undefined {
  const name = [device.first_name, device.surname].filter((part) => part !== undefined && part !== '').join(' ');
  return name === '' ? undefined : name;
}

/** The phone numbers, SIM slot order, as one line ("07700900102 (slot 1), …"); the legacy number when none. */
export function phoneNumbersText(device: Pick<Device, 'phone_numbers' | 'legacy_phone_number'>): string {
  const numbers = [...device.phone_numbers]
    .sort((a, b) => (a.slot_index ?? 0) - (b.slot_index ?? 0))
    .map((entry) => (entry.slot_index === undefined ? entry.phone_number : `${entry.phone_number} (slot ${entry.slot_index + 1})`));
  if (numbers.length === 0 && device.legacy_phone_number) return `${device.legacy_phone_number} (legacy)`;
  return numbers.join(', ');
}

/** The device's number in its lowest SIM slot, else its legacy number, or undefined when it has none. */
export function firstNumber(device: Pick<Device, 'phone_numbers' | 'legacy_phone_number'>): string | undefined {
  const first = [...device.phone_numbers].sort((a, b) => (a.slot_index ?? 0) - (b.slot_index ?? 0))[0];
  return first?.phone_number ?? (device.legacy_phone_number || undefined);
}

/**
 * A device in words, never its reference: model and number ("Pixel 8 · +447700900101"), either alone, or "Unnamed
 * device" when it reported neither (a device that never authenticated).
 */
export function deviceName(device: Pick<Device, 'model' | 'phone_numbers' | 'legacy_phone_number'>): string {
  const parts = [device.model?.trim() || undefined, firstNumber(device)].filter((part) => part !== undefined);
  return parts.length === 0 ? 'Unnamed device' : parts.join(' · ');
}

/** The device page's title: "Pixel 8 · +447700900101 · Alice Archer" (its user's name when it has one). */
export function deviceTitle(device: Pick<Device, 'model' | 'phone_numbers' | 'legacy_phone_number' | 'first_name' | 'surname'>): string {
  const holder = holderName(device);
  return holder === undefined ? deviceName(device) : `${deviceName(device)} · ${holder}`;
}
