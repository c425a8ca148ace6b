import type { Service } from '#shared/constants/devices.ts';
import { raiseAlert } from '../alerts/public.ts';
import type { Dependencies } from '../core/dependencies.ts';
import { HttpError } from '../core/errors.ts';
import { keys } from '../core/store/keys.ts';
import { readLicencesItem } from '../core/store/entities/licences.ts';
import { readLicences } from './licence-usage.ts';

/** 409: the write would take a licence beyond the client's limit; one `services.<service>: …` line per service. */
export class LicenceLimitError extends HttpError {
  override readonly name = 'LicenceLimitError';
  constructor(
    readonly refused: ReadonlyArray<{ service: Service; limit: number }>,
  ) {
    super(409, refused.map(({ service, limit }) => licenceLine(service, limit)));
  }
}

export const licenceLine = (service: Service, limit: number) => `services.${service}: Licence limit of ${limit} reached for ${service}`;

/**
 * After a device-user transaction was cancelled: which of the services it took one more licence of are at their
 * limit now (read consistently). Empty when none is, so the caller reports its other conditions instead.
 */
export async function servicesAtLimit(
  deps: Pick<Dependencies, 'table'>,
  client: string,
  increased: readonly Service[],
): Promise<Array<{ service: Service; limit: number }>> {
  if (increased.length === 0) return [];
  const item = await deps.table.get(keys.licence.item(client), { consistent: true });
  const licences = readLicences(client, item === undefined ? undefined : readLicencesItem(item));
  return licences.data.filter((entry) => increased.includes(entry.service) && entry.used >= entry.limit).map(({ service, limit }) => ({ service, limit }));
}

/**
 * One ops alert per refused service (AccountAlert, Scoped per service: repeated refusals append occurrences to the
 * open alert instead of flooding the list), naming who wrote (`by`) and the act refused (`action`). Never throws: a
 * failed alert is logged, the 409 still goes out.
 */
export async function raiseLicenceAlerts(
  deps: Pick<Dependencies, 'table' | 'clock' | 'logger'>,
  client: string,
  refused: ReadonlyArray<{ service: Service; limit: number }>,
  { by, action }: { by: string; action: string },
): Promise<void> {
  for (const { service, limit } of refused) {
    try {
      await raiseAlert(deps, client, {
        scope: 'ops',
        type: 'AccountAlert',
        subject: `Licence limit reached for ${service}`,
        key: `licence-limit:${service}`,
        keyType: 'Scoped',
        severity: 'Medium',
        message: `A device user write by ${by.slice(0, 200)} was refused: the licence limit of ${limit} for ${service} is reached`,
        apiAction: action,
      });
    } catch (error) {
      deps.logger.error('licence alert not raised', { client, service, error });
    }
  }
}
