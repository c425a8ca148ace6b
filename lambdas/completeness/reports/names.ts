import type { Dependencies } from '#core/dependencies.ts';
import { displayNamesOf, optionalField } from '#core/store/display-names.ts';

/** A report row or entry that names a device user and a device (each optional: a tenant or group row names neither). */
interface Named {
  device_user_reference?: string | undefined;
  device_reference?: string | undefined;
}

type WithNames<T> = T & { device_user_name?: string; device_model?: string };

/**
 * Rows and entries show their device user's name and their device's model as recordings do: read for a whole page at
 * once, never copied onto the counters or entries (#core/store/display-names.ts).
 */
export async function withNames<T extends Named>(deps: Pick<Dependencies, 'table'>, client: string, rows: readonly T[]): Promise<Array<WithNames<T>>> {
  if (rows.length === 0) return [];
  const names = await displayNamesOf(deps, client, {
    deviceUsers: rows.map((row) => row.device_user_reference),
    devices: rows.map((row) => row.device_reference),
  });
  return rows.map((row) => ({
    ...row,
    ...optionalField('device_user_name', names.userName(row.device_user_reference)),
    ...optionalField('device_model', names.deviceModel(row.device_reference)),
  }));
}
