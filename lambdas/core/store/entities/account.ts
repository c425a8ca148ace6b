import * as z from 'zod';
import { onFirstUse } from '../../on-first-use.ts';
import type { ItemKey, TableItem } from '../../ports/table-store.ts';
import { ENTITY, list, onIndex, part, tenantPrefix, type ItemKeys, type ListKey } from '../key-parts.ts';
import { readItem } from './read-item.ts';
import { EXAMPLE_CLIENT, entityModel } from '../entity-model.ts';

/** The tenant's account item (the client record, defaults, migration config live beside it by sort key). */
const accountPartition = (client: string) => `${tenantPrefix(client)}ACCOUNT`;

/** Named indexes: staff list every client (the list lives in the provider's own tenant, so it too starts with a client). */
export const ACCOUNT_INDEXES = { clients: 'gsi1' } as const;

export const accountKeys = {
  item: (client: string): ItemKeys => ({
    pk: accountPartition(client),
    sk: 'ACCOUNT',
    entity: ENTITY.account,
    ...onIndex[ACCOUNT_INDEXES.clients](`${tenantPrefix('admin')}CLIENTS`, part(client)),
  }),
  /** A named account setting (`DEFAULTS`, `MIGRATION`, `RETENTION`, …) in the account partition. */
  setting: (client: string, name: string): ItemKey => ({ pk: accountPartition(client), sk: `SETTING#${part(name)}` }),
  /** Internal console: all clients. */
  listAll: (): ListKey => list(ACCOUNT_INDEXES.clients, `${tenantPrefix('admin')}CLIENTS`),
};

/**
 * A tenant's account item (`accountKeys.item`): the client, its display name, and on tenants created before the
 * defaults setting existed, the legacy `account_defaults` (free-form: account-defaults.ts reads it field by field).
 */
export const accountItemSchema = /* @__PURE__ */ onFirstUse(() => z.object({
  client: z.string(),
  display_name: z.string().optional(),
  created_at: z.string().optional(),
  /** Shown on the internal client list when the item has it. */
  is_active: z.boolean().optional(),
  updated_at: z.string().optional(),
  updated_by: z.string().optional(),
  account_defaults: z.unknown().optional(),
  /**
   * Since when every Processed payload of the tenant carries its byProcessedAt keys: written with a new tenant's
   * account (nothing of it predates the index) and by the `processed-index-backfill` job once it has walked an older
   * tenant's payloads. Until then a transfer's selection reads the tenant's whole list instead of the index
   * (lambdas/transfers/job/selection.ts): slower, never short of a recording processed before the index was written.
   */
  processed_indexed_at: z.string().optional(),
  /**
   * Since when every device's latest telemetry report is on the tenant's latest-reports index (entities/telemetry.ts):
   * written with a new tenant's account and by the `telemetry-index-backfill` job once it has walked an older tenant's
   * fleet. Until then `GET telemetry` reads the device list and each device's latest report, as before the index.
   */
  telemetry_indexed_at: z.string().optional(),
  /**
   * Since when every message with a thread carries its byThread keys (entities/payload.ts): written with a new tenant's
   * account and by the `processed-index-backfill` job once it has walked an older tenant's payloads. Until then an SMS
   * thread reads the device's recordings and keeps the thread's (lambdas/payloads/payload-lists.ts), as before the index.
   */
  thread_indexed_at: z.string().optional(),
}));
export type AccountItem = z.infer<ReturnType<typeof accountItemSchema>>;

export function readAccount(item: TableItem): AccountItem {
  return readItem('Account', accountItemSchema(), item);
}

/** What docs/data-model.md says of this entity, generated from the builders above (entity-model.ts). */
export const accountModel = /* @__PURE__ */ entityModel(() => ({
  entity: ENTITY.account,
  title: 'Account (the tenant)',
  module: 'account.ts',
  indexes: ACCOUNT_INDEXES,
  items: [
    { example: () => accountKeys.item(EXAMPLE_CLIENT) },
    { when: 'an account setting (defaults, migration, retention, retention indexed), beside it', example: () => accountKeys.setting(EXAMPLE_CLIENT, '<name>') },
  ],
  accessPatterns: [
    { name: 'Get the tenant account', serves: 'account metadata, defaults', builders: ['keys.account.item'], example: () => accountKeys.item(EXAMPLE_CLIENT) },
    {
      name: 'Get / put an account setting',
      serves: '`account/defaults`, `account/migration`, `account/retention`; the retention job\'s position (`RETENTION_INDEXED`)',
      builders: ['keys.account.setting', 'keys.retentionPolicy.key', 'keys.retentionIndexed.key'],
      example: () => accountKeys.setting(EXAMPLE_CLIENT, '<name>'),
    },
    {
      name: 'List all clients (staff); every tenant, for the jobs that walk tenants',
      serves: 'internal `GET /clients`; the sweeps and jobs run per client',
      builders: ['keys.account.listAll'],
      example: () => accountKeys.listAll(),
    },
  ],
}));
