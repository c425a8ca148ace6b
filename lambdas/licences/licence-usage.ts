import { SERVICES, type Service } from '#shared/constants/devices.ts';
import { LICENCE_LIMIT_MAX } from '#shared/constants/limits.ts';
import type { Licences, LicenceLimits } from '#shared/contract/entities/licences.ts';
import type { TransactOperation } from '../core/ports/table-store.ts';
import { limitAttribute, usedAttribute, type LicencesItem } from '../core/store/entities/licences.ts';
import { ENTITY, keys } from '../core/store/keys.ts';

/**
 * Licence use, kept at WRITE time: `used_<service>` on the client's licence item counts the ACTIVE device users with
 * the service enabled. Every device-user write that changes that adds `licenceUseOperation(...)` to its own
 * transaction; an increment carries the condition `use < limit` on the same item, so two racing onboardings cannot
 * both take the last licence (one transaction is cancelled).
 *
 * Decision: a client whose limits staff never set is licensed up to the maximum (LICENCE_LIMIT_MAX) for every
 * service, so tenants created before licences existed (and the demo seed) keep working; staff narrow it with
 * `PUT /clients/{client}/licenses`. Lowering a limit below the current use is allowed: nobody is offboarded, but no
 * further user can take the service until the use drops below the limit.
 */

export const DEFAULT_LICENCE_LIMIT = LICENCE_LIMIT_MAX;

export { limitAttribute, usedAttribute };

/** The fields of a device user its licence use depends on. */
export interface LicenceFields {
  is_active: boolean;
  services: readonly Service[];
}

/** Per service: +1 when the write enables it for an active user, -1 when it stops counting (zeros left out). */
export function licenceUseChanges(before: LicenceFields | undefined, after: LicenceFields | undefined): Partial<Record<Service, number>> {
  const changes: Partial<Record<Service, number>> = {};
  const apply = (user: LicenceFields | undefined, sign: 1 | -1) => {
    if (user === undefined || !user.is_active) return;
    for (const service of new Set(user.services)) changes[service] = (changes[service] ?? 0) + sign;
  };
  apply(before, -1);
  apply(after, 1);
  for (const service of SERVICES) if (changes[service] === 0) delete changes[service];
  return changes;
}

/** The services a change takes one more licence of (the ones the limit condition guards). */
export function increasedServices(changes: Partial<Record<Service, number>>): Service[] {
  return SERVICES.filter((service) => (changes[service] ?? 0) > 0);
}

/**
 * The change as transaction steps (at most one update of the licence item), to spread into the caller's
 * `transactWrite`. Each increased service is guarded by `used < limit` (or `< DEFAULT_LICENCE_LIMIT` while staff
 * set no limit). Decrements carry no condition: an offboarding is never refused, and reads clamp at zero.
 */
export function licenceUseOperations(client: string, changes: Partial<Record<Service, number>>): TransactOperation[] {
  const add: Record<string, number> = {};
  for (const service of SERVICES) {
    const value = changes[service] ?? 0;
    if (value === 0) continue;
    if (!Number.isSafeInteger(value)) throw new Error(`Licence use change of ${service} must be a whole number`);
    add[usedAttribute(service)] = value;
  }
  if (Object.keys(add).length === 0) return [];
  const increased = increasedServices(changes);
  const operation: TransactOperation = { kind: 'update', key: keys.licence.item(client), update: { set: { entity: ENTITY.licences, client }, add } };
  if (increased.length === 0) return [operation];
  // Placeholders are `#l<n>` / `#u<n>`: never the adapter's `#f<n>`. A write changes a service by at most one
  // (the user had it or not, has it or not), so the condition is simply `used < limit` before the ADD.
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = { ':zero': 0, ':default': DEFAULT_LICENCE_LIMIT };
  const clauses = increased.map((service, index) => {
    const [limit, used] = [`#l${index}`, `#u${index}`];
    names[limit] = limitAttribute(service);
    names[used] = usedAttribute(service);
    return (
      `((attribute_not_exists(${limit}) AND (attribute_not_exists(${used}) OR ${used} < :default))` +
      ` OR (attribute_exists(${limit}) AND attribute_not_exists(${used}) AND ${limit} > :zero)` +
      ` OR ${used} < ${limit})`
    );
  });
  return [{ ...operation, condition: { kind: 'expression', expression: clauses.join(' AND '), names, values } }];
}

/** A counter as a whole number at least zero (undefined when absent; a drifted negative use reads as 0). */
function count(item: LicencesItem | undefined, attribute: ReturnType<typeof limitAttribute | typeof usedAttribute>): number | undefined {
  const value = item?.[attribute];
  return value !== undefined && Number.isFinite(value) ? Math.max(0, Math.trunc(value)) : undefined;
}

/** The limits on the item (the default for a service staff never set). */
export function readLimits(item: LicencesItem | undefined): LicenceLimits {
  return Object.fromEntries(SERVICES.map((service) => [service, count(item, limitAttribute(service)) ?? DEFAULT_LICENCE_LIMIT])) as LicenceLimits;
}

/** The contract's Licences: limit and use per service, in the contract's service order. */
export function readLicences(client: string, item: LicencesItem | undefined): Licences {
  const limits = readLimits(item);
  return {
    client,
    data: SERVICES.map((service) => ({ service, limit: limits[service], used: count(item, usedAttribute(service)) ?? 0 })),
  };
}
