import * as z from 'zod';
import { S3TransferParams, SftpTransferParams, TransferConfig } from '#shared/contract/entities/transfers.ts';
import { onFirstUse } from '../../on-first-use.ts';
import type { ItemKey, TableItem } from '../../ports/table-store.ts';
import { ENTITY, part, referenceList, tenantPrefix, type ItemKeys, type ListKey } from '../key-parts.ts';
import { readItem } from './read-item.ts';
import { EXAMPLE_CLIENT, entityModel } from '../entity-model.ts';

/** A transfer configuration, by its reference; the list reads the tenant's partition in reference order. */
export const transferConfigKeys = {
  item: (client: string, configReference: string): ItemKeys => ({ ...transferConfigKeys.key(client, configReference), entity: ENTITY.transferConfig }),
  key: (client: string, configReference: string): ItemKey => ({ pk: `${tenantPrefix(client)}TRANSFER_CONFIGS`, sk: `CONFIG#${part(configReference)}` }),
  /** The tenant's configurations, or those whose reference starts with `startsWith`. */
  list: (client: string, startsWith?: string): ListKey => referenceList(`${tenantPrefix(client)}TRANSFER_CONFIGS`, 'CONFIG#', startsWith),
};

/**
 * A secret sealed by the key service (`KeyService.wrapKey` under the tenant key, with the tenant, the configuration
 * and the field as encryption context): only the wrapped bytes are stored, never the plaintext.
 */
export const sealedSecretSchema = /* @__PURE__ */ onFirstUse(() => z.object({ key_id: z.string().min(1), wrapped: z.string().min(1) }));
export type SealedSecret = z.infer<ReturnType<typeof sealedSecretSchema>>;

/**
 * A tenant's transfer configuration (`keys.transferConfig`). Beside the contract's fields it keeps:
 * - `sealed_zip_password` / `sealed_sftp_password`: the secured data, sealed (the API says only whether each is set);
 * - `schedule_name`: the EventBridge Scheduler schedule that runs it, present exactly while the configuration is
 *   active with a schedule, so a delete or a change knows which schedule to remove;
 * - `revision`: changes on every write, so undoing a write whose schedule could not be saved never undoes another's.
 */
// Built on first read, not at load: every function bundles this module for its keys (keys.ts), and the contract's
// schema it extends reaches the schedule check (croner), which only the transfer functions should carry.
const buildTransferConfigItem = () =>
  TransferConfig.omit({ has_zip_password: true, has_sftp_password: true, external_id: true }).extend({
    client: z.string(),
    // As stored: the contract's bounds check what a request sends, not what a reader finds.
    transfer_config_reference: z.string(),
    schedule: z.string(),
    params: z.union([S3TransferParams, SftpTransferParams]),
    sealed_zip_password: sealedSecretSchema().optional(),
    sealed_sftp_password: sealedSecretSchema().optional(),
    schedule_name: z.string().optional(),
    revision: z.string(),
    created_at: z.string(),
    updated_by: z.string(),
    updated_at: z.string(),
  });
let transferConfigItemSchema: ReturnType<typeof buildTransferConfigItem> | undefined;
const transferConfigItem = () => (transferConfigItemSchema ??= buildTransferConfigItem());

export type TransferConfigItem = z.infer<ReturnType<typeof buildTransferConfigItem>>;

export function readTransferConfig(item: TableItem): TransferConfigItem {
  return readItem('TransferConfig', transferConfigItem(), item);
}

/** The configuration's item: its attributes under its keys. */
export function transferConfigToItem(config: TransferConfigItem): TableItem {
  return { ...transferConfigKeys.item(config.client, config.transfer_config_reference), ...config };
}

/** The configuration as the API answers it: never a secret, only whether each is set. */
export function toTransferConfig(stored: TransferConfigItem): TransferConfig {
  const { sealed_zip_password, sealed_sftp_password, schedule_name: _schedule, revision: _revision, created_at: _created, ...shown } = stored;
  return { ...shown, has_zip_password: sealed_zip_password !== undefined, has_sftp_password: sealed_sftp_password !== undefined };
}

/** What docs/data-model.md says of this entity, generated from the builders above (entity-model.ts). */
export const transferConfigModel = /* @__PURE__ */ entityModel(() => ({
  entity: ENTITY.transferConfig,
  title: 'Transfer configuration',
  module: 'transfer-config.ts',
  indexes: {},
  items: [{ example: () => transferConfigKeys.item(EXAMPLE_CLIENT, '<transfer_config_reference>') }],
  accessPatterns: [
    { name: 'Get one', serves: '`transfer_configs/{transfer_config_reference}`; run now and the scheduled run read one (consistent)', builders: ['keys.transferConfig.item'], example: () => transferConfigKeys.item(EXAMPLE_CLIENT, '<transfer_config_reference>') },
    { name: 'List the tenant\'s (`starts_with`: a prefix of the sort key)', serves: '`GET transfer_configs`', builders: ['keys.transferConfig.list'], example: () => transferConfigKeys.list(EXAMPLE_CLIENT, '<prefix>') },
  ],
}));
