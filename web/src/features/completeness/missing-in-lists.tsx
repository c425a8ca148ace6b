import { Alert, Anchor } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import type { LedgerPayloadType } from '#shared/constants/completeness.ts';
import type { CompletenessEntry } from '#shared/contract/entities/completeness.ts';
import type { GapRow } from '../../lib/gap-rows.ts';
import { compactQuery } from '../../lib/search-params.ts';
import { useCan } from '../../lib/use-can.ts';
import { useCompletenessEntries, type CompletenessEntriesQuery } from './api/list-entries.ts';
import { entryLine } from './completeness-model.ts';

/** The recordings list's filters this needs (the recordings screens' URL search, read structurally). */
export interface ListFilters {
  from?: string | undefined;
  to?: string | undefined;
  date_filter_type?: string | undefined;
  type?: string | undefined;
  payload_state?: string | undefined;
  is_late?: boolean | undefined;
  stored?: boolean | undefined;
  group?: string | undefined;
  device_reference?: string | undefined;
  device_user_reference?: string | undefined;
  phone_number?: string | undefined;
}

const MESSAGE_TYPES = ['SMS', 'MMS', 'RCS'] as const satisfies readonly LedgerPayloadType[];

/**
 * The ledger payload types whose missing entries belong in a recordings list with these filters, or none when a
 * filter is one an entry cannot meet (a recording's state, lateness, storage, a number, a date other than the
 * recording's time, or an aborted or blocked call): then no missing entry is shown rather than one the filter would
 * not have let through.
 */
export function missingTypesFor(kind: 'calls' | 'messages', filters: ListFilters): LedgerPayloadType[] {
  const recordingOnly =
    filters.payload_state !== undefined ||
    filters.is_late === true ||
    filters.stored === true ||
    filters.phone_number !== undefined ||
    (filters.date_filter_type !== undefined && filters.date_filter_type !== 'payload_time');
  if (recordingOnly) return [];
  if (kind === 'calls') return filters.type === undefined || filters.type === 'Call' ? ['Call'] : [];
  if (filters.type === undefined) return [...MESSAGE_TYPES];
  return (MESSAGE_TYPES as readonly string[]).includes(filters.type) ? [filters.type as LedgerPayloadType] : [];
}

/** The entries query of one payload type's missing entries under the list's filters. */
export function missingQuery(type: LedgerPayloadType, filters: ListFilters): CompletenessEntriesQuery {
  return {
    ...compactQuery({
      from: filters.from,
      to: filters.to,
      group: filters.group,
      device_reference: filters.device_reference,
      device_user_reference: filters.device_user_reference,
    }),
    outcome: 'Missing',
    payload_type: type,
    limit: '100',
  } as CompletenessEntriesQuery;
}

/** A missing entry as a row of a recordings list: what the entry says, and whose phone saw it. */
export function gapRowOf(entry: CompletenessEntry): GapRow {
  const whose = entry.device_user_name ?? entry.device_model ?? entry.device_reference;
  return {
    gap_key: entry.entry_reference,
    time: entry.start_time,
    text: `${entryLine(entry)} · ${whose}`,
    device_reference: entry.device_reference,
    thread_id: entry.thread_id,
  };
}

/**
 * The `Missing` entries a calls or messages list shows where their recordings would have been: the first page (100)
 * of each payload type the list's filters allow, with a note linking to the completeness report when there are more.
 * Nothing for a role that cannot list entries.
 */
export function useMissingGaps(kind: 'calls' | 'messages', filters: ListFilters): { rows: GapRow[]; note?: ReactNode } | undefined {
  const canList = useCan('completeness:ListEntries');
  const types = canList.allowed ? missingTypesFor(kind, filters) : [];
  // One list per payload type, always the same hooks in the same order (a type not wanted is not fetched).
  const call = useCompletenessEntries(missingQuery('Call', filters), { enabled: types.includes('Call') });
  const sms = useCompletenessEntries(missingQuery('SMS', filters), { enabled: types.includes('SMS') });
  const mms = useCompletenessEntries(missingQuery('MMS', filters), { enabled: types.includes('MMS') });
  const rcs = useCompletenessEntries(missingQuery('RCS', filters), { enabled: types.includes('RCS') });
  if (types.length === 0) return undefined;
  const lists = [
    { type: 'Call' as const, list: call },
    { type: 'SMS' as const, list: sms },
    { type: 'MMS' as const, list: mms },
    { type: 'RCS' as const, list: rcs },
  ].filter((entry) => types.includes(entry.type));
  const rows = lists.flatMap(({ list }) => list.items.map(gapRowOf));
  const more = lists.some(({ list }) => list.hasNextPage);
  const note = more ? (
    <Alert color="yellow" variant="light" title="More not recorded than shown">
      {`More ${kind === 'calls' ? 'calls' : 'messages'} the phones saw were not recorded in this period than this list shows. `}
      <Anchor
        renderRoot={(props) => (
          <Link
            {...props}
            to="/dashboard/services/completeness"
            search={{
              from: filters.from,
              to: filters.to,
              group: filters.group,
              device_reference: filters.device_reference,
              device_user_reference: filters.device_user_reference,
              outcome: 'Missing',
              payload_type: types.length === 1 ? types[0] : undefined,
              entries: true,
            }}
          />
        )}
      >
        See all of them in the completeness report
      </Anchor>
    </Alert>
  ) : undefined;
  return note === undefined ? { rows } : { rows, note };
}
