import { Anchor, Badge, Button, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { Link } from '@tanstack/react-router';
import { useState, type ReactNode } from 'react';
import type { CompletenessOutcome } from '#shared/constants/completeness.ts';
import type { CompletenessEntry } from '#shared/contract/entities/completeness.ts';
import { gateProps, PermissionTooltip } from '../../components/access/permitted-button.tsx';
import { downloadCsv, toCsv } from '../../lib/csv.ts';
import { formatNumber } from '../../lib/format.ts';
import { COMPLETENESS_OUTCOME_LABELS, labelOf } from '../../lib/labels.ts';
import { useSession } from '../../lib/session/session-context.tsx';
import { useCan } from '../../lib/use-can.ts';
import { fetchAllEntries, type CompletenessEntriesQuery } from './api/list-entries.ts';
import { ENTRY_COLUMNS, OUTCOME_COLOURS } from './completeness-model.ts';
import type { CompletenessSearch } from './completeness-search.ts';

/** An entry's outcome as a badge (its word always shown: the colour only repeats it). */
export function OutcomeBadge({ outcome }: { outcome: CompletenessOutcome }) {
  return (
    <Badge variant="light" color={OUTCOME_COLOURS[outcome]} miw="max-content" data-testid="completeness-outcome">
      {labelOf(COMPLETENESS_OUTCOME_LABELS, outcome)}
    </Badge>
  );
}

/** The recording that captured an entry, opened on its service's page; none says so in words. */
export function EntryRecordingLink({ entry }: { entry: CompletenessEntry }) {
  const reference = entry.payload_reference;
  if (reference === undefined) {
    return (
      <Text size="sm" c="dimmed">
        {entry.outcome === 'Pending' ? 'Not yet recorded' : 'Not recorded'}
      </Text>
    );
  }
  const params = { payloadReference: reference };
  const calls = entry.payload_type === 'Call' || entry.payload_type === 'AbortedCall' || entry.payload_type === 'BlockedCall';
  return calls ? (
    <Anchor size="sm" renderRoot={(props) => <Link {...props} to="/dashboard/services/calls/$payloadReference" params={params} />}>
      Open recording
    </Anchor>
  ) : (
    <Anchor size="sm" renderRoot={(props) => <Link {...props} to="/dashboard/services/messages/$payloadReference" params={params} />}>
      Open recording
    </Anchor>
  );
}

/**
 * A count of the report that opens the entries behind it (the report's URL with the drill-down set), when the
 * user's roles may list entries and there is something to open; else the plain number.
 */
export function CountLink({
  count,
  search,
  label,
}: {
  count: number;
  /** The report's search with the drill-down this count opens. */
  search: CompletenessSearch;
  /** What the link opens, for assistive technology and the tooltip: "Missing of Alice Archer on 12 Nov 2026". */
  label: string;
}) {
  const canList = useCan('completeness:ListEntries');
  // The entries list needs an outcome, a person or a device (no one key holds every entry of the tenant).
  const listable = search.outcome !== undefined || search.device_user_reference !== undefined || search.device_reference !== undefined;
  if (count === 0 || !canList.allowed || !listable) return <>{formatNumber(count)}</>;
  return (
    <Anchor
      size="sm"
      fw={600}
      aria-label={`${formatNumber(count)} ${label}: show the entries`}
      title={`Show the entries: ${label}`}
      renderRoot={(props) => <Link {...props} to="/dashboard/services/completeness" search={{ ...search, entries: true }} resetScroll={false} />}
    >
      {formatNumber(count)}
    </Anchor>
  );
}

/**
 * "Download ledger (CSV)": every entry of the filters (all pages, not only those shown), with its outcome and
 * recording, as one file. This is how a device user's ledger is exported on request.
 */
export function DownloadEntriesButton({ query, fileName, children = 'Download ledger (CSV)' }: { query: CompletenessEntriesQuery; fileName: string; children?: ReactNode }) {
  const { session } = useSession();
  const permission = useCan('completeness:ListEntries');
  const [fetched, setFetched] = useState<number | undefined>(undefined);
  const download = async () => {
    setFetched(0);
    try {
      const { entries, partial } = await fetchAllEntries(session, query, setFetched);
      downloadCsv(fileName, toCsv(ENTRY_COLUMNS, entries));
      if (partial) {
        notifications.show({
          color: 'yellow',
          message: `The file holds the first ${formatNumber(entries.length)} entries only: choose a shorter period for the rest.`,
          closeButtonProps: { 'aria-label': 'Close notification' },
        });
      }
    } catch (error) {
      notifications.show({
        color: 'red',
        title: 'The ledger could not be downloaded',
        message: error instanceof Error ? error.message : String(error),
        closeButtonProps: { 'aria-label': 'Close notification' },
      });
    } finally {
      setFetched(undefined);
    }
  };
  return (
    <PermissionTooltip permission={permission}>
      <Button variant="default" size="xs" loading={fetched !== undefined} {...gateProps<HTMLButtonElement>(permission, () => void download())}>
        {children}
      </Button>
    </PermissionTooltip>
  );
}
