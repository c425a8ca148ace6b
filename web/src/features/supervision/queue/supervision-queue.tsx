import { Group, Stack, Text } from '@mantine/core';
import { useEffect, useMemo, useState } from 'react';
import type { SupervisionItem } from '#shared/contract/entities/supervision.ts';
import { PermittedButton } from '../../../components/access/permitted-button.tsx';
import { CursorTable, pagingOf } from '../../../components/data/cursor-table.tsx';
import { InvertedRangeNotice } from '../../../components/filters/filter-inputs.tsx';
import { formatNumber } from '../../../lib/format.ts';
import { invertedRange } from '../../../lib/search-params.ts';
import { useCan } from '../../../lib/use-can.ts';
import { useSelection } from '../../../lib/use-selection.ts';
import { useSupervisionItems, useSupervisionItemTotal } from '../api/list-items.ts';
import { useUpdateSupervisionItem } from '../api/update-item.ts';
import { BulkReview, type BulkOutcome } from './bulk-review.tsx';
import { queueColumns } from './queue-columns.tsx';
import { QueueFilters } from './queue-filters.tsx';
import { queueQuery, type SupervisionQueueSearch } from './queue-search.ts';

/**
 * The review queue: the filters `GET supervision/items` offers (kept in the URL by the route), the total they hold,
 * the items page by page, and, for a role that may review, Claim on an open row and bulk claim or close of up to 100
 * selected rows, each row showing its own answer.
 */
export function SupervisionQueue({ search, onSearch }: { search: SupervisionQueueSearch; onSearch: (next: SupervisionQueueSearch) => void }) {
  const query = useMemo(() => queueQuery(search), [search]);
  const enabled = !invertedRange(search.from, search.to);
  const list = useSupervisionItems(query, { enabled });
  const total = useSupervisionItemTotal(query, { enabled });
  const mayReview = useCan('supervision:ReviewItem').allowed;
  const selection = useSelection();
  const [outcomes, setOutcomes] = useState<ReadonlyMap<string, BulkOutcome>>(new Map());
  const claim = useUpdateSupervisionItem();
  const queryKey = JSON.stringify(query);
  const clearSelection = selection.clear;
  // Another filter is another list: what was selected or answered for the last one does not carry over.
  useEffect(() => {
    clearSelection();
    setOutcomes(new Map());
  }, [queryKey, clearSelection]);

  const claimOne = (item: SupervisionItem) =>
    claim.mutate(
      { params: { item_reference: item.item_reference }, body: { action: 'claim' } },
      {
        onSuccess: () => setOutcomes((current) => new Map([...current, [item.item_reference, { ok: true, text: 'Claimed' }]])),
        onError: (error) => setOutcomes((current) => new Map([...current, [item.item_reference, { ok: false, text: error.message }]])),
      },
    );
  const columns = queueColumns({
    selection: mayReview ? selection : undefined,
    outcomes,
    claimControl: mayReview
      ? (item) =>
          item.state === 'Open' && (
            <PermittedButton action="supervision:ReviewItem" size="compact-xs" variant="light" onClick={() => claimOne(item)} loading={claim.isPending && claim.variables?.params.item_reference === item.item_reference}>
              Claim
            </PermittedButton>
          )
      : undefined,
  });

  return (
    <Stack>
      <QueueFilters search={search} onSearch={onSearch} />
      <InvertedRangeNotice from={search.from} to={search.to} />
      <Group justify="space-between">
        <Text size="sm" aria-live="polite" data-testid="queue-total">
          {total.total === undefined ? (total.isLoading ? 'Counting…' : '') : `${formatNumber(total.total)} ${total.total === 1 ? 'item matches' : 'items match'} these filters.`}
        </Text>
      </Group>
      {mayReview && <BulkReview selection={selection} shown={list.items.map((item) => item.item_reference)} onOutcomes={setOutcomes} />}
      <CursorTable
        label="Review queue"
        columns={columns}
        rows={list.items}
        rowKey={(row) => row.item_reference}
        {...pagingOf(list)}
        empty="No review items match these filters."
      />
    </Stack>
  );
}
