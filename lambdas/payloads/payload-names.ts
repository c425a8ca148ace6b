import type { Dependencies } from '#core/dependencies.ts';
import { onFirstUse } from '#core/on-first-use.ts';
import { deviceItemSchema } from '#core/store/entities/device.ts';
import { deviceUserItemSchema } from '#core/store/entities/device-user.ts';
import { readItem } from '#core/store/entities/read-item.ts';
import { keys } from '#core/store/keys.ts';
import type { Payload } from '#shared/contract/entities/payloads.ts';

/**
 * The words a recording is shown by: its device user's name and its device's model and first phone number. Resolved
 * when recordings are read, for a whole page by ONE BatchGet of the page's distinct device users and devices (a page
 * names few), never copied onto the recording: a renamed user or a re-numbered phone reads the same on every
 * recording at once, and a destroyed user (whose personal fields retention removed) shows no name rather than an old
 * copy. Only the tenant's own items are keyed, so no other tenant's name can be read.
 */
export async function withNames<P extends Payload>(deps: Pick<Dependencies, 'table'>, client: string, payloads: readonly P[]): Promise<P[]> {
  const users = [...new Set(payloads.map((payload) => payload.device_user_reference).filter((reference) => reference !== undefined))];
  const devices = [...new Set(payloads.map((payload) => payload.device_reference))];
  if (users.length + devices.length === 0) return [...payloads];
  const items = await deps.table.batchGet([
    ...users.map((reference) => keys.deviceUser.key(client, reference)),
    ...devices.map((reference) => keys.device.key(client, reference)),
  ]);
  const names = new Map<string, string>();
  const phones = new Map<string, { model?: string; number?: string }>();
  for (const item of items) {
    if (item.entity === 'DeviceUser') {
      const user = readItem('DeviceUser', userNameSchema(), item);
      const name = [textOf(user.first_name), textOf(user.surname)].filter((part) => part !== undefined).join(' ');
      if (name !== '') names.set(user.device_user_reference, name);
    } else if (item.entity === 'Device') {
      const device = readItem('Device', deviceNameSchema(), item);
      phones.set(device.device_reference, { ...optional('model', textOf(device.model)), ...optional('number', firstNumber(device)) });
    }
  }
  return payloads.map((payload) => {
    const name = payload.device_user_reference === undefined ? undefined : names.get(payload.device_user_reference);
    const phone = phones.get(payload.device_reference);
    return {
      ...payload,
      ...optional('device_user_name', name),
      ...optional('device_model', phone?.model),
      ...optional('device_phone_number', phone?.number),
    };
  });
}

/** One recording (the detail page) named the same way. */
export async function withName<P extends Payload>(deps: Pick<Dependencies, 'table'>, client: string, payload: P): Promise<P> {
  const [named] = await withNames(deps, client, [payload]);
  return named ?? payload;
}

/** A page (or a count, which has nothing to name) with its recordings named. */
export async function pageWithNames<P extends Payload, R extends { data: P[] } | { count: number }>(
  deps: Pick<Dependencies, 'table'>,
  client: string,
  result: R,
): Promise<R> {
  if (!('data' in result)) return result;
  return { ...result, data: await withNames(deps, client, result.data) };
}

/** Only the fields a name is made of: reads nothing else, so it never fails on a part of the record it does not need. */
// Built on first read, as the entity schemas they pick from are (#core/on-first-use.ts).
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

const optional = <K extends string>(key: K, value: string | undefined) => (value === undefined ? {} : ({ [key]: value } as Record<K, string>));
