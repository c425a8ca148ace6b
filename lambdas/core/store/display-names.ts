import type { Dependencies } from '../dependencies.ts';
import { onFirstUse } from '../on-first-use.ts';
import { deviceItemSchema } from './entities/device.ts';
import { deviceUserItemSchema } from './entities/device-user.ts';
import { readItem } from './entities/read-item.ts';
import { keys } from './keys.ts';

/** How a device user and a device are shown in words: the user's name; the device's model and first phone number. */
export interface DisplayNames {
  userName(deviceUserReference: string | undefined): string | undefined;
  deviceModel(deviceReference: string | undefined): string | undefined;
  devicePhoneNumber(deviceReference: string | undefined): string | undefined;
}

/**
 * The words a page of records (recordings, completeness rows and entries) names its people and phones by, read by ONE
 * BatchGet of the page's distinct device users and devices (a page names few) when the page is read, never copied onto
 * the records: a renamed user or a re-numbered phone reads the same everywhere at once, and a destroyed user (whose
 * personal fields retention removed) shows no name rather than an old copy. Only the tenant's own items are keyed, so
 * no other tenant's name can be read.
 */
export async function displayNamesOf(
  deps: Pick<Dependencies, 'table'>,
  client: string,
  references: { deviceUsers: Iterable<string | undefined>; devices: Iterable<string | undefined> },
): Promise<DisplayNames> {
  const users = distinct(references.deviceUsers);
  const devices = distinct(references.devices);
  const names = new Map<string, string>();
  const phones = new Map<string, { model?: string | undefined; number?: string | undefined }>();
  if (users.length + devices.length > 0) {
    const items = await deps.table.batchGet([
      ...users.map((reference) => keys.deviceUser.key(client, reference)),
      ...devices.map((reference) => keys.device.key(client, reference)),
    ]);
    for (const item of items) {
      if (item.entity === 'DeviceUser') {
        const user = readItem('DeviceUser', userNameSchema(), item);
        const name = [textOf(user.first_name), textOf(user.surname)].filter((part) => part !== undefined).join(' ');
        if (name !== '') names.set(user.device_user_reference, name);
      } else if (item.entity === 'Device') {
        const device = readItem('Device', deviceNameSchema(), item);
        phones.set(device.device_reference, { model: textOf(device.model), number: firstNumber(device) });
      }
    }
  }
  return {
    userName: (reference) => (reference === undefined ? undefined : names.get(reference)),
    deviceModel: (reference) => (reference === undefined ? undefined : phones.get(reference)?.model),
    devicePhoneNumber: (reference) => (reference === undefined ? undefined : phones.get(reference)?.number),
  };
}

/** `{ [key]: value }` when there is a value, else nothing: names are absent, never empty, when unknown. */
export const optionalField = <K extends string>(key: K, value: string | undefined) => (value === undefined ? {} : ({ [key]: value } as Record<K, string>));

const distinct = (references: Iterable<string | undefined>) => [...new Set([...references].filter((reference) => reference !== undefined))];

/** Only the fields a name is made of: reads nothing else, so it never fails on a part of the record it does not need. */
// Built on first read, as the entity schemas they pick from are (../on-first-use.ts).
const userNameSchema = /* @__PURE__ */ onFirstUse(() => deviceUserItemSchema().pick({ device_user_reference: true, first_name: true, surname: true }));
const deviceNameSchema = /* @__PURE__ */ onFirstUse(() =>
  deviceItemSchema().pick({ device_reference: true, model: true, phone_numbers: true, legacy_phone_number: true }),
);

/** The device's number in its lowest SIM slot (the one its user is reached on first), else its legacy number. */
function firstNumber(device: { phone_numbers: readonly { phone_number: string; slot_index?: number | undefined }[]; legacy_phone_number?: string | undefined }) {
  const first = [...device.phone_numbers].sort((a, b) => (a.slot_index ?? 0) - (b.slot_index ?? 0))[0];
  return first?.phone_number ?? textOf(device.legacy_phone_number);
}

const textOf = (value: unknown) => (typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined);
