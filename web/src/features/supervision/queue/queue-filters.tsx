import { Button, Group, Select, SimpleGrid, Switch } from '@mantine/core';
import { SUPERVISION_ITEM_STATES, type SupervisionItemState } from '#shared/constants/supervision.ts';
import { DateRangeFilter } from '../../../components/filters/date-range-filter.tsx';
import { DebouncedTextFilter } from '../../../components/filters/filter-inputs.tsx';
import { useCan } from '../../../lib/use-can.ts';
import { usePolicyChoices } from '../api/list-policies.ts';
import type { SupervisionQueueSearch } from './queue-search.ts';

/**
 * The policy filter: a choice among the tenant's policies that raise items (an Ignore policy raises none) when the
 * role may list them, else the policy's reference typed in. A reference from the URL that is not among the first
 * hundred policies stays a choice, so the filter shows what the queue is filtered by.
 */
function PolicyFilter({ value, onApply }: { value: string | undefined; onApply: (value: string | undefined) => void }) {
  const mayList = useCan('supervision:ListPolicies').allowed;
  const choices = usePolicyChoices({ enabled: mayList });
  if (!mayList) return <DebouncedTextFilter label="Policy" placeholder="Policy reference" maxLength={60} value={value} onApply={onApply} />;
  const references = choices.policies.filter((policy) => policy.kind !== 'Ignore').map((policy) => policy.policy_reference);
  if (value !== undefined && !references.includes(value)) references.push(value);
  return <Select label="Policy" placeholder="Any policy" clearable searchable data={references} value={value ?? null} onChange={(next) => onApply(next ?? undefined)} />;
}

/** The filters `GET supervision/items` offers, as form controls; every change goes to the URL (the queue follows it). */
export function QueueFilters({ search, onSearch }: { search: SupervisionQueueSearch; onSearch: (next: SupervisionQueueSearch) => void }) {
  const set = (patch: Partial<SupervisionQueueSearch>) => onSearch({ ...search, ...patch });
  const filtered = Object.values(search).some((value) => value !== undefined);
  return (
    <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} component="form" role="search" aria-label="Filter the review queue" onSubmit={(event) => event.preventDefault()}>
      <Select
        label="State"
        placeholder="Any state"
        clearable
        data={[...SUPERVISION_ITEM_STATES]}
        value={search.state ?? null}
        onChange={(value) => set({ state: (value ?? undefined) as SupervisionItemState | undefined })}
      />
      <PolicyFilter value={search.policy_reference} onApply={(value) => set({ policy_reference: value })} />
      <DebouncedTextFilter label="Assignee" placeholder="Portal user reference" value={search.assignee} onApply={(value) => set({ assignee: value })} />
      <DebouncedTextFilter label="Device user" placeholder="Device user reference" maxLength={60} value={search.device_user_reference} onApply={(value) => set({ device_user_reference: value })} />
      <DebouncedTextFilter label="Group" value={search.group} onApply={(value) => set({ group: value })} />
      <DateRangeFilter from={search.from} to={search.to} fromLabel="Recorded from" toLabel="Recorded to" onChange={(range) => set(range)} />
      <Group align="flex-end" justify="space-between" gap="xs">
        <Switch label="Overdue only" checked={search.overdue === true} onChange={(event) => set({ overdue: event.currentTarget.checked ? true : undefined })} />
        <Button variant="default" size="xs" onClick={() => onSearch({})} disabled={!filtered}>
          Clear filters
        </Button>
      </Group>
    </SimpleGrid>
  );
}
