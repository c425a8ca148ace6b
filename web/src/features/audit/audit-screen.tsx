import { SegmentedControl, Select, SimpleGrid, Stack, Tabs, Text } from '@mantine/core';
import { useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import { ACTION_WORDING } from '#shared/contract/action-wording.ts';
import type { UserActivity } from '#shared/contract/entities/activity.ts';
import { CursorTable, pagingOf } from '../../components/data/cursor-table.tsx';
import { DateRangeFilter } from '../../components/filters/date-range-filter.tsx';
import { DebouncedTextFilter, InvertedRangeNotice } from '../../components/filters/filter-inputs.tsx';
import { LegalHoldNotice } from '../../components/data/legal-hold-badge.tsx';
import { PageHeader } from '../../components/page/page-header.tsx';
import { invertedRange } from '../../lib/search-params.ts';
import { useCan } from '../../lib/use-can.ts';
import { DEVICE_ACTIVITY_COLUMNS, USER_ACTIVITY_COLUMNS } from './activity-columns.tsx';
import { foldReads, whoOf } from './activity-sentence.ts';
import { deviceActivityQueryOf, userActivityQueryOf, type AuditSearch } from './audit-filters.ts';
import { useDeviceActivity } from './api/list-device-activity.ts';
import { useUserActivity } from './api/list-user-activity.ts';
import { usePortalUserHolds } from './api/list-portal-user-holds.ts';

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
  const people = usePeopleSeen();
  const personHolds = usePortalUserHolds(trail === 'users' ? (search.user_id ?? search.portal_user) : undefined);
  return (
    <>
      <PageHeader
        title="Audit"
        description="Who did what, and when. Records are append-only and hash-chained; repeated views of one page by one person show as one line. Export what a filter shows as CSV."
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
                <UserTrailFilters search={search} people={people.options} onChange={set} />
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
            <LegalHoldNotice heldBy={personHolds} what="person's activity" />
            {canUsers.allowed ? <UserTrail search={search} enabled={!bad} onPeople={people.add} /> : <Text c="dimmed">{canUsers.reason}</Text>}
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

/**
 * The portal users' trail in sentences, reads of one thing by one person in a row folded into one line. `onPeople`
 * learns who appears, so the person filter can offer them by name.
 */
function UserTrail({ search, enabled, onPeople }: { search: AuditSearch; enabled: boolean; onPeople: (rows: readonly UserActivity[]) => void }) {
  const list = useUserActivity(userActivityQueryOf(search), enabled);
  const rows = useMemo(() => foldReads(list.items), [list.items]);
  useEffect(() => onPeople(list.items), [list.items, onPeople]);
  return <CursorTable label="User activity" columns={USER_ACTIVITY_COLUMNS} rows={rows} rowKey={(row) => row.first.log_id} {...pagingOf(list)} empty="No activity matches these filters." />;
}

/** Everyone the trail has shown so far, by reference, named as the screens name them (for the person filter). */
function usePeopleSeen(): { options: { value: string; label: string }[]; add: (rows: readonly UserActivity[]) => void } {
  const [people, setPeople] = useState<ReadonlyMap<string, string>>(new Map());
  const add = useCallback((rows: readonly UserActivity[]) => {
    setPeople((known) => {
      const unseen = rows.filter((row) => !known.has(row.user_id));
      if (unseen.length === 0) return known;
      const next = new Map(known);
      for (const row of unseen) next.set(row.user_id, whoOf(row));
      return next;
    });
  }, []);
  const options = useMemo(() => [...people].map(([value, label]) => ({ value, label })).sort((a, b) => a.label.localeCompare(b.label)), [people]);
  return { options, add };
}

/** Every action in words, as the action filter offers them ("Downloading recordings"). */
const ACTION_OPTIONS = Object.entries(ACTION_WORDING)
  .map(([value, wording]) => ({ value, label: wording.doing.charAt(0).toUpperCase() + wording.doing.slice(1) }))
  .sort((a, b) => a.label.localeCompare(b.label));

function UserTrailFilters({
  search,
  people,
  onChange,
}: {
  search: AuditSearch;
  people: { value: string; label: string }[];
  onChange: (patch: Partial<AuditSearch>) => void;
}) {
  const person = search.user_id ?? search.portal_user;
  // The chosen person stays offered even before the trail has shown them (a link from an alert, say).
  const personOptions = person === undefined || people.some((option) => option.value === person) ? people : [{ value: person, label: person }, ...people];
  return (
    <SimpleGrid cols={{ base: 1, sm: 3 }}>
      <Select
        label="Person"
        placeholder="Anyone"
        searchable
        clearable
        data={personOptions}
        value={person ?? null}
        onChange={(value) => onChange({ user_id: value ?? undefined, portal_user: undefined })}
        nothingFoundMessage="Nobody seen in the trail so far"
      />
      <Select
        label="Action"
        placeholder="Any action"
        searchable
        clearable
        data={ACTION_OPTIONS}
        value={search.action ?? null}
        onChange={(value) => onChange({ action: value ?? undefined })}
      />
      <div>
        <Text size="sm" fw={500} id="audit-kind" mb={4}>
          Kind
        </Text>
        <SegmentedControl
          aria-labelledby="audit-kind"
          value={search.kind ?? 'any'}
          onChange={(value) => onChange({ kind: value === 'any' ? undefined : (value as AuditSearch['kind']) })}
          data={[
            { value: 'any', label: 'Any' },
            { value: 'read', label: 'Reads' },
            { value: 'change', label: 'Changes' },
          ]}
        />
      </div>
    </SimpleGrid>
  );
}

function DeviceTrail({ search, enabled }: { search: AuditSearch; enabled: boolean }) {
  const list = useDeviceActivity(deviceActivityQueryOf(search), enabled);
  return <CursorTable label="Device activity" columns={DEVICE_ACTIVITY_COLUMNS} rows={list.items} rowKey={(row) => row.log_id} {...pagingOf(list)} empty="No activity matches these filters." />;
}
