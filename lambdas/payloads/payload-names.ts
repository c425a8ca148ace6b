import type { Dependencies } from '#core/dependencies.ts';
import { displayNamesOf, optionalField } from '#core/store/display-names.ts';
import type { Payload } from '#shared/contract/entities/payloads.ts';

/**
 * The words a recording is shown by: its device user's name and its device's model and first phone number, read for a
 * whole page at once (#core/store/display-names.ts says when and why).
 */
export async function withNames<P extends Payload>(deps: Pick<Dependencies, 'table'>, client: string, payloads: readonly P[]): Promise<P[]> {
  if (payloads.length === 0) return [];
  const names = await displayNamesOf(deps, client, {
    deviceUsers: payloads.map((payload) => payload.device_user_reference),
    devices: payloads.map((payload) => payload.device_reference),
  });
  return payloads.map((payload) => ({
    ...payload,
    ...optionalField('device_user_name', names.userName(payload.device_user_reference)),
    ...optionalField('device_model', names.deviceModel(payload.device_reference)),
    ...optionalField('device_phone_number', names.devicePhoneNumber(payload.device_reference)),
  }));
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
