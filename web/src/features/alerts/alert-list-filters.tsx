import { Checkbox, SegmentedControl, Select, SimpleGrid, Stack, Text } from '@mantine/core';
import { ALERT_SEVERITIES, ALERT_STATES, ALERT_TYPES, type AlertDateFilter } from '#shared/constants/alerts.ts';
import { DateRangeFilter } from '../../components/filters/date-range-filter.tsx';
import { InvertedRangeNotice } from '../../components/filters/filter-inputs.tsx';
import type { AlertsSearch } from './alert-filters.ts';
import { alertTypeLabel } from './alert-labels.ts';

/** The alert list's filters: state, severity, type, the day range and which occurrence it applies to. */
export function AlertListFilters({ search, onChange }: { search: AlertsSearch; onChange: (patch: Partial<AlertsSearch>) => void }) {
  const dateFilter: AlertDateFilter = search.date_filter ?? 'last_occurrence';
  return (
    <Stack gap="xs" component="form" role="search" aria-label="Filter alerts" onSubmit={(event) => event.preventDefault()}>
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        <Select
          label="State"
          placeholder="Any state"
          clearable
          data={[...ALERT_STATES]}
          value={search.state ?? null}
          onChange={(value) => onChange({ state: (value ?? undefined) as AlertsSearch['state'] })}
        />
        <Select
          label="Severity"
          placeholder="Any severity"
          clearable
          data={[...ALERT_SEVERITIES]}
          value={search.severity ?? null}
          onChange={(value) => onChange({ severity: (value ?? undefined) as AlertsSearch['severity'] })}
        />
        <Select
          label="Type"
          placeholder="Any type"
          clearable
          data={ALERT_TYPES.map((type) => ({ value: type, label: alertTypeLabel(type) }))}
          value={search.type ?? null}
          onChange={(value) => onChange({ type: (value ?? undefined) as AlertsSearch['type'] })}
        />
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        <div>
          <Text size="sm" fw={500} id="alert-date-filter" mb={4}>
            Dates apply to
          </Text>
          <SegmentedControl
            aria-labelledby="alert-date-filter"
            value={dateFilter}
            onChange={(value) => onChange({ date_filter: value === 'first_occurrence' ? 'first_occurrence' : undefined })}
            data={[
              { value: 'last_occurrence', label: 'Last occurrence' },
              { value: 'first_occurrence', label: 'First occurrence' },
            ]}
          />
        </div>
        <DateRangeFilter from={search.from} to={search.to} onChange={(range) => onChange(range)} />
      </SimpleGrid>
      <InvertedRangeNotice from={search.from} to={search.to} />
      <Checkbox
        label="Only alerts still triggered that I have not dismissed"
        checked={search.active_only === true}
        onChange={(event) => onChange({ active_only: event.currentTarget.checked || undefined })}
      />
    </Stack>
  );
}
