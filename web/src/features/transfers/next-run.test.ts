import { describe, expect, it } from 'vitest';
import type { TransferConfig } from '#shared/contract/entities/transfers.ts';
import { formatDateTime } from '../../lib/format.ts';
import { nextRunOf } from './configs-screen.tsx';

const NOW = new Date('2026-11-24T13:07:00.000Z');
const config = (overrides: Partial<TransferConfig>): TransferConfig => ({
  transfer_config_reference: 'Nightly archive',
  transfer_type: 'Payload',
  target_type: 'SFTP',
  payload_types: ['Call'],
  schedule: 'rate(6 hours)',
  transfer_file_format: 'Zipped',
  params: {},
  is_active: true,
  updated_at: '2026-11-24T10:00:00.000Z',
  ...overrides,
});

describe('a configuration’s next run in the list', () => {
  it('counts a rate from when the configuration was saved', () => {
    expect(nextRunOf(config({}), NOW)).toBe(formatDateTime(new Date('2026-11-24T16:00:00.000Z')));
  });

  it('reads a cron in UTC, and says when there is none', () => {
    expect(nextRunOf(config({ schedule: 'cron(0 2 * * ? *)' }), NOW)).toBe(formatDateTime(new Date('2026-11-25T02:00:00.000Z')));
    expect(nextRunOf(config({ schedule: 'cron(0 2 * * ? 2020)' }), NOW)).toBe('None to come');
    expect(nextRunOf(config({ schedule: '' }), NOW)).toBe('On demand');
    expect(nextRunOf(config({ is_active: false }), NOW)).toBe('Not while inactive');
  });
});
