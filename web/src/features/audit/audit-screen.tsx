import { SegmentedControl, SimpleGrid, Stack, Tabs, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { CursorTable, pagingOf } from '../../components/data/cursor-table.tsx';
import { DateRangeFilter } from '../../components/filters/date-range-filter.tsx';
import { DebouncedTextFilter, InvertedRangeNotice } from '../../components/filters/filter-inputs.tsx';
import { PageHeader } from '../../components/page/page-header.tsx';
import { invertedRange } from '../../lib/search-params.ts';
import { useCan } from '../../lib/use-can.ts';
import { DEVICE_ACTIVITY_COLUMNS, USER_ACTIVITY_COLUMNS } from './activity-columns.tsx';
import { deviceActivityQueryOf, userActivityQueryOf, type AuditSearch } from './audit-filters.ts';
import { useDeviceActivity } from './list-device-activity.ts';
import { useUserActivity } from './list-user-activity.ts';

type Trail = 'users' | 'devices' | 'disposals';

/**
 * The audit trail: every call by portal users, client apps and support staff, and every call by devices, with filters
 * and CSV export of what is shown. `chainState` is the panel saying how far the hash chain is verified; `disposals`,
 * when given, is a third tab (the retention job's disposal records, with filters of its own).
 */
export function AuditScreen({
  search,
  onSearch,
  chainState,
  disposals,
}: {
  search: AuditSearch;
  onSearch: (next: AuditSearch) => void;
  chainState?: ReactNode;
  disposals?: ReactNode;
}) {
  const canUsers = useCan('activities:List');
  const canDevices = useCan('deviceActivities:List');
  const trail: Trail = search.trail ?? (canUsers.allowed || !canDevices.allowed ? 'users' : 'devices');
  const set = (patch: Partial<AuditSearch>) => onSearch({ ...search, ...patch });
  const bad = invertedRange(search.from, search.to);
  return (
    <>
      <PageHeader
        title="Audit"
        description="Who did what, and when. Records are append-only and hash-chained; export what a filter shows as CSV."
      />
      <Stack>
        {chainState}
        <Tabs value={trail} onChange={(value) => set({ trail: (value ?? 'users') as Trail })} keepMounted={false}>
          <Tabs.List mb="md">
            <Tabs.Tab value="users">Portal users and apps</Tabs.Tab>
            <Tabs.Tab value="devices">Devices</Tabs.Tab>
            {disposals !== undefined && <Tabs.Tab value="disposals">Disposals</Tabs.Tab>}
          </Tabs.List>
          {trail !== 'disposals' && (
            <Stack gap="xs" component="form" role="search" aria-label="Filter activity" onSubmit={(event) => event.preventDefault()} mb="md">
              <SimpleGrid cols={{ base: 1, sm: 3 }}>
                <DateRangeFilter from={search.from} to={search.to} onChange={(range) => set(range)} />
                <div>
                  <Text size="sm" fw={500} id="audit-outcome" mb={4}>
                    Outcome
                  </Text>
                  <SegmentedControl
                    aria-labelledby="audit-outcome"
                    value={search.outcome ?? 'any'}
                    onChange={(value) => set({ outcome: value === 'any' ? undefined : (value as AuditSearch['outcome']) })}
                    data={[
                      { value: 'any', label: 'Any' },
                      { value: 'allowed', label: 'Allowed' },
                      { value: 'refused', label: 'Refused' },
                    ]}
                  />
                </div>
              </SimpleGrid>
              {trail === 'users' ? (
                <SimpleGrid cols={{ base: 1, sm: 3 }}>
                  <DebouncedTextFilter label="User" placeholder="User reference or app" value={search.user_id} onApply={(value) => set({ user_id: value })} />
                  <DebouncedTextFilter label="Action" placeholder="e.g. devices:List" value={search.action} onApply={(value) => set({ action: value })} />
                </SimpleGrid>
              ) : (
                <SimpleGrid cols={{ base: 1, sm: 3 }}>
                  <DebouncedTextFilter label="Device reference" maxLength={60} value={search.device_reference} onApply={(value) => set({ device_reference: value })} />
                  <DebouncedTextFilter label="Device user reference" maxLength={60} value={search.device_user_reference} onApply={(value) => set({ device_user_reference: value })} />
                  <DebouncedTextFilter label="Group" value={search.group} onApply={(value) => set({ group: value })} />
                </SimpleGrid>
              )}
              <InvertedRangeNotice from={search.from} to={search.to} />
            </Stack>
          )}
          <Tabs.Panel value="users">
            {canUsers.allowed ? <UserTrail search={search} enabled={!bad} /> : <Text c="dimmed">{canUsers.reason}</Text>}
          </Tabs.Panel>
          <Tabs.Panel value="devices">
            {canDevices.allowed ? <DeviceTrail search={search} enabled={!bad} /> : <Text c="dimmed">{canDevices.reason}</Text>}
          </Tabs.Panel>
          {disposals !== undefined && <Tabs.Panel value="disposals">{disposals}</Tabs.Panel>}
        </Tabs>
      </Stack>
    </>
  );
}

function UserTrail({ search, enabled }: { search: AuditSearch; enabled: boolean }) {
  const list = useUserActivity(userActivityQueryOf(search), enabled);
  return <CursorTable label="User activity" columns={USER_ACTIVITY_COLUMNS} rows={list.items} rowKey={(row) => row.log_id} {...pagingOf(list)} empty="No activity matches these filters." />;
}

function DeviceTrail({ search, enabled }: { search: AuditSearch; enabled: boolean }) {
  const list = useDeviceActivity(deviceActivityQueryOf(search), enabled);
  return <CursorTable label="Device activity" columns={DEVICE_ACTIVITY_COLUMNS} rows={list.items} rowKey={(row) => row.log_id} {...pagingOf(list)} empty="No activity matches these filters." />;
}
