import { describe, expect, it } from 'vitest';
import { TransferConfig } from '#shared/contract/entities/transfers.ts';
import { InternalError } from '../../errors.ts';
import { keys } from '../keys.ts';
import { readTransferConfig, toTransferConfig, transferConfigToItem, type TransferConfigItem } from './transfer-config.ts';
import { readTransfer, toTransferable, transferToItem, type TransferItem } from './transfer.ts';

const config: TransferConfigItem = {
  client: 'acme',
  transfer_config_reference: 'nightly #1',
  transfer_type: 'Payload',
  target_type: 'SFTP',
  payload_types: ['Call'],
  schedule: 'rate(1 day)',
  transfer_file_format: 'ZippedWithPassword',
  params: { server: 'sftp.example.com', port: 22, root_directory: '/in', username: 'verity' },
  is_active: true,
  sealed_zip_password: { key_id: 'local/acme/k', wrapped: 'AAEC' },
  schedule_name: 'transfer-0123',
  revision: '01JREV',
  created_at: '2026-01-02T03:04:05.000Z',
  updated_by: 'u-1',
  updated_at: '2026-01-02T03:04:05.000Z',
};

describe('transfer configuration item', () => {
  it('round-trips with its keys, the reference escaped in the sort key', () => {
    const item = transferConfigToItem(config);
    expect(item).toMatchObject({ pk: 'C#acme#TRANSFER_CONFIGS', sk: 'CONFIG#nightly %231', entity: 'TransferConfig' });
    expect(readTransferConfig(item)).toEqual(config);
  });

  it('answers the contract shape: whether each secret is set, never the sealed bytes or the bookkeeping', () => {
    const shown = toTransferConfig(config);
    expect(TransferConfig.strict().safeParse(shown).success).toBe(true);
    expect(shown).toMatchObject({ has_zip_password: true, has_sftp_password: false });
    for (const hidden of ['sealed_zip_password', 'sealed_sftp_password', 'schedule_name', 'revision', 'created_at']) expect(shown).not.toHaveProperty(hidden);
  });

  it('refuses a malformed item naming the entity and the path', () => {
    const item = { ...transferConfigToItem(config), sealed_zip_password: { key_id: 'k' } };
    expect(() => readTransferConfig(item)).toThrow(InternalError);
    expect(() => readTransferConfig(item)).toThrow(/TransferConfig item .* sealed_zip_password\.wrapped: /);
  });
});

describe('transfer item', () => {
  it('round-trips and answers the contract shape without its tenant and starter', () => {
    const transfer: TransferItem = {
      client: 'acme',
      started_by: 'u-1',
      transfer_id: '01JTRANSFER0000000000000000',
      transfer_config_reference: 'nightly',
      transfer_type: 'Payload',
      created_at: '2026-01-02T03:04:05.000Z',
      transfer_state: 'Pending',
      transfers: [],
      related_payloads: [],
      payload_count: 0,
    };
    const item = transferToItem(transfer);
    expect(item).toMatchObject(keys.transfer.item('acme', transfer.transfer_id));
    expect(readTransfer(item)).toEqual(transfer);
    expect(toTransferable(transfer)).not.toHaveProperty('client');
    expect(toTransferable(transfer)).not.toHaveProperty('started_by');
  });
});
