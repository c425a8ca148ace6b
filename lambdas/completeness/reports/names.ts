import type { Dependencies } from '#core/dependencies.ts';
import { onFirstUse } from '#core/on-first-use.ts';
import { deviceItemSchema } from '#core/store/entities/device.ts';
import { deviceUserItemSchema } from '#core/store/entities/device-user.ts';
import { readItem } from '#core/store/entities/read-item.ts';
import { keys } from '#core/store/keys.ts';

/** A report row or entry that names a device user and a device (each optional: a tenant or group row names neither). */
interface Named {
  device_user_reference?: string | undefined;
  device_reference?: string | undefined;
}

type WithNames<T> = T & { device_user_name?: string; device_model?: string };

/**
 * Rows and entries show their device user's name and their device's model as recordings do
 * (lambdas/payloads/payload-names.ts): resolved when read, for a whole page by ONE BatchGet of its distinct users and
 * devices, never copied onto the counters or entries, so a renamed user reads the same everywhere and a user whose
 * personal fields retention destroyed shows no name. Only the tenant's own items are keyed.
 */
export async function withNames<T extends Named>(deps: Pick<Dependencies, 'table'>, client: string, rows: readonly T[]): Promise<Array<WithNames<T>>> {
  const users = [...new Set(rows.map((row) => row.device_user_reference).filter((reference) => reference !== undefined))];
  const devices = [...new Set(rows.map((row) => row.device_reference).filter((reference) => reference !== undefined))];
  if (users.length + devices.length === 0) return [...rows];
  const items = await deps.table.batchGet([
    ...users.map((reference) => keys.deviceUser.key(client, reference)),
    ...devices.map((reference) => keys.device.key(client, reference)),
  ]);
  const names = new Map<string, string>();
  const models = new Map<string, string>();
  for (const item of items) {
    if (item.entity === 'DeviceUser') {
      const user = readItem('DeviceUser', userNameSchema(), item);
      const name = [textOf(user.first_name), textOf(user.surname)].filter((part) => part !== undefined).join(' ');
      if (name !== '') names.set(user.device_user_reference, name);
    } else if (item.entity === 'Device') {
      const device = readItem('Device', deviceModelSchema(), item);
      const model = textOf(device.model);
      if (model !== undefined) models.set(device.device_reference, model);
    }
  }
  return rows.map((row) => {
    const name = row.device_user_reference === undefined ? undefined : names.get(row.device_user_reference);
    const model = row.device_reference === undefined ? undefined : models.get(row.device_reference);
    return { ...row, ...(name === undefined ? {} : { device_user_name: name }), ...(model === undefined ? {} : { device_model: model }) };
  });
}

/** Only the fields a name is made of: reads nothing else, so it never fails on a part of the record it does not need. */
const userNameSchema = /* @__PURE__ */ onFirstUse(() => deviceUserItemSchema().pick({ device_user_reference: true, first_name: true, surname: true }));
const deviceModelSchema = /* @__PURE__ */ onFirstUse(() => deviceItemSchema().pick({ device_reference: true, model: true }));

const textOf = (value: unknown) => (typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined);
