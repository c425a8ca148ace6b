import { describe, expect, it } from 'vitest';
import type { Logger } from '#core/logger.ts';
import { createCursorCodec } from '#core/store/cursor.ts';
import { deviceLogToItem, type DeviceLogItem } from '#core/store/entities/device-log.ts';
import { createAccessContext } from '#core/auth/access/create-access-context.ts';
import { tenantCaller } from '#core/testing/callers.ts';
import { createMemoryTable } from '#core/testing/memory-table.ts';
import type { Role } from '#shared/contract/entities/roles.ts';
import { listLogs } from './reads.ts';

/** A caller no condition narrows: every group in scope. */
const everything = { role_reference: 'everything', permissions: [{ actions_matching: '*' }], payload_types: [], cidr_ranges: [], is_system: false } as unknown as Role;
const everyGroup = createAccessContext({ roles: [everything], ip: undefined, isClientApp: false });

const line = (id: string, time: string, level: DeviceLogItem['log_level']): DeviceLogItem => ({
  client: 'acme',
  log_id: id,
  device_reference: 'dev-1',
  log_level: level,
  log_datetime: time,
  log_message: `line ${id}`,
  received_at: time,
});

describe('device log reads', () => {
  it('leave a stored line that cannot be read out of the page and log it, never failing the list', async () => {
    const broken = { ...deviceLogToItem('acme', line('b', '2026-01-02T00:00:00.000Z', 'INFO')), log_level: 'LOUD' };
    const table = createMemoryTable([deviceLogToItem('acme', line('a', '2026-01-01T00:00:00.000Z', 'WARN')), broken]);
    const warnings: Array<Record<string, unknown> | undefined> = [];
    const logger: Logger = { debug: () => undefined, info: () => undefined, error: () => undefined, warn: (_message, fields) => warnings.push(fields) };
    const deps = { table, cursors: createCursorCodec('x'.repeat(40)), logger };

    const caller = tenantCaller(deps, 'acme', everyGroup, { action: 'deviceLogs:List' });
    const page = await listLogs(caller, { limit: 10, result_type: 'page', device_reference: 'dev-1' });
    expect(page).toMatchObject({ count: 1, data: [{ log_id: 'a', log_level: 'WARN', device_reference: 'dev-1' }] });
    expect(warnings).toContainEqual(expect.objectContaining({ pk: broken.pk, sk: broken.sk, problem: expect.stringMatching(/DeviceLog item .* log_level: /) }));

    const warnOnly = await listLogs(caller, { limit: 10, result_type: 'page', device_reference: 'dev-1', log_level: 'WARN' });
    expect(warnOnly).toMatchObject({ count: 1, data: [{ log_id: 'a' }] });
  });
});
