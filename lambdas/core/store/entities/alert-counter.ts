import * as z from 'zod';
import { ALERT_SCOPES, ALERT_SEVERITIES, type AlertScope, type AlertSeverity } from '#shared/constants/alerts.ts';
import { onFirstUse } from '../../on-first-use.ts';
import type { TableItem } from '../../ports/table-store.ts';
import { ENTITY, part, tenantPrefix, type ItemKeys } from '../key-parts.ts';
import { readItem } from './read-item.ts';
import { EXAMPLE_CLIENT, entityModel } from '../entity-model.ts';

/** Summary counters of alerts: one item per tenant and one per user (dismissed), attributes `<scope>_<severity>`. */
export const alertCounterKeys = {
  /** Tenant counters of Triggered alerts. */
  tenantCounter: (client: string): ItemKeys => ({ pk: `${tenantPrefix(client)}ALERT_COUNTERS`, sk: 'TENANT', entity: ENTITY.alertCounter }),
  /** One user's counters of dismissed Triggered alerts. */
  userCounter: (client: string, user: string): ItemKeys => ({
    pk: `${tenantPrefix(client)}ALERT_COUNTERS`,
    sk: `USER#${part(user)}`,
    entity: ENTITY.alertCounter,
  }),
};

/** The counter attribute of one scope × severity (tenant and user counter items). */
export const counterAttribute = (scope: AlertScope, severity: AlertSeverity): string => `${scope}_${severity}`;

/**
 * Counters of Triggered alerts, one number per scope × severity (`<scope>_<severity>`, changed with atomic ADD):
 * one item per tenant, and one per user for the alerts that user dismissed. A counter never ADDed is absent.
 */
export const alertCounterItemSchema = /* @__PURE__ */ onFirstUse(() => z.object(
  Object.fromEntries(
    ALERT_SCOPES.flatMap((scope) => ALERT_SEVERITIES.map((severity) => [counterAttribute(scope, severity), z.number().optional()])),
  ) as Record<string, z.ZodOptional<z.ZodNumber>>,
));
export type AlertCounterItem = Partial<Record<string, number>>;

export function readAlertCounter(item: TableItem): AlertCounterItem {
  return readItem('AlertCounter', alertCounterItemSchema(), item);
}

/** One counter of an item read (0 when the item or the counter is absent). */
export function alertCount(counters: AlertCounterItem | undefined, scope: AlertScope, severity: AlertSeverity): number {
  return counters?.[counterAttribute(scope, severity)] ?? 0;
}

/** What docs/data-model.md says of this entity, generated from the builders above (entity-model.ts). */
export const alertCounterModel = /* @__PURE__ */ entityModel(() => ({
  entity: ENTITY.alertCounter,
  title: 'Alert counters',
  module: 'alert-counter.ts',
  indexes: {},
  items: [
    { when: 'the tenant\'s Triggered alerts', example: () => alertCounterKeys.tenantCounter(EXAMPLE_CLIENT) },
    { when: 'one user\'s dismissed alerts', example: () => alertCounterKeys.userCounter(EXAMPLE_CLIENT, '<user>') },
  ],
  accessPatterns: [],
}));
