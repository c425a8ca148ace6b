import { Button, Group, Select, SimpleGrid, Switch } from '@mantine/core';
import { PAYLOAD_DATE_FILTER_TYPES, PAYLOAD_STATES, type PayloadDateFilterType, type PayloadState, type PayloadType } from '#shared/constants/payloads.ts';
import { DateRangeFilter } from '../../../components/filters/date-range-filter.tsx';
import { DebouncedTextFilter } from '../../../components/filters/filter-inputs.tsx';
import { PAYLOAD_STATE_LABELS, PAYLOAD_TYPE_LABELS } from '../shared/labels.ts';
import { PersonFilter } from './person-filter.tsx';
import type { RecordingsSearch } from './search.ts';

const DATE_FILTER_LABELS: Record<PayloadDateFilterType, string> = {
  payload_time: 'Recorded',
  updated_at: 'Last changed',
  processed_at: 'Processed',
};

/** The filters `GET payloads` offers, as form controls; every change goes to the URL (the list follows it). */
export function RecordingFilters({
  label,
  types,
  search,
  onSearch,
  tenantWide,
  withPhoneNumber,
}: {
  label: string;
  types: readonly PayloadType[];
  search: RecordingsSearch;
  onSearch: (next: RecordingsSearch) => void;
  /** The tenant's list also filters by device and device user (a device's or user's own list is already one). */
  tenantWide: boolean;
  withPhoneNumber: boolean;
}) {
  const set = (patch: Partial<RecordingsSearch>) => onSearch({ ...search, ...patch });
  const filtered = Object.entries(search).some(([key, value]) => key !== 'view' && value !== undefined);
  return (
    <SimpleGrid
      cols={{ base: 1, sm: 2, lg: 4 }}
      component="form"
      role="search"
      aria-label={`Filter ${label.toLowerCase()}`}
      onSubmit={(event) => event.preventDefault()}
    >
      <DateRangeFilter from={search.from} to={search.to} onChange={(range) => set(range)} />
      <Select
        label="Dates apply to"
        data={PAYLOAD_DATE_FILTER_TYPES.map((value) => ({ value, label: DATE_FILTER_LABELS[value] }))}
        value={search.date_filter_type ?? 'payload_time'}
        onChange={(value) => set({ date_filter_type: value === null || value === 'payload_time' ? undefined : (value as PayloadDateFilterType) })}
        allowDeselect={false}
      />
      {types.length > 1 && (
        <Select
          label="Type"
          placeholder="All types"
          clearable
          data={types.map((value) => ({ value, label: PAYLOAD_TYPE_LABELS[value] }))}
          value={search.type ?? null}
          onChange={(value) => set({ type: (value ?? undefined) as PayloadType | undefined })}
        />
      )}
      <Select
        label="State"
        placeholder="Any state"
        clearable
        data={PAYLOAD_STATES.map((value) => ({ value, label: PAYLOAD_STATE_LABELS[value] }))}
        value={search.payload_state ?? null}
        onChange={(value) => set({ payload_state: (value ?? undefined) as PayloadState | undefined })}
      />
      {withPhoneNumber && (
        <DebouncedTextFilter label="Phone number" placeholder="Any party's number" value={search.phone_number} onApply={(value) => set({ phone_number: value })} />
      )}
      <DebouncedTextFilter label="Group" value={search.group} onApply={(value) => set({ group: value })} />
      {tenantWide && (
        <>
          <DebouncedTextFilter label="Device reference" value={search.device_reference} maxLength={60} onApply={(value) => set({ device_reference: value })} />
          <PersonFilter value={search.device_user_reference} onApply={(value) => set({ device_user_reference: value })} />
        </>
      )}
      <Group align="flex-end" justify="space-between" gap="xs">
        <Group gap="md">
          <Switch
            label="Late uploads only"
            mb={8}
            checked={search.is_late === true}
            onChange={(event) => set({ is_late: event.currentTarget.checked ? true : undefined })}
          />
          {/* What the services overview and the metrics count: recordings that reached Processed. */}
          <Switch
            label="Stored recordings only"
            mb={8}
            checked={search.stored === true}
            onChange={(event) => set({ stored: event.currentTarget.checked ? true : undefined })}
          />
        </Group>
        <Button variant="subtle" disabled={!filtered} onClick={() => onSearch({ view: search.view })}>
          Clear filters
        </Button>
      </Group>
    </SimpleGrid>
  );
}
