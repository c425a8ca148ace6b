import { Anchor, Badge, Group, Modal, Progress, SegmentedControl, SimpleGrid, Stack, Text } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { useState, type ReactNode } from 'react';
import type { LegalHoldTargetType } from '#shared/constants/account.ts';
import type { LegalHold } from '#shared/contract/entities/account-data.ts';
import { PermittedButton } from '../../components/access/permitted-button.tsx';
import { CursorTable, pagingOf, type Column } from '../../components/data/cursor-table.tsx';
import { PageHeader } from '../../components/page/page-header.tsx';
import { formatDateTime } from '../../lib/format.ts';
import { LEGAL_HOLD_TARGET_LABELS } from '../../lib/labels.ts';
import { useCan } from '../../lib/use-can.ts';
import { useLegalHolds, type LegalHoldQuery } from './api/list-legal-holds.ts';
import { coverageLines, isSyncing, syncProgress } from './hold-model.ts';
import { PlaceHoldForm } from './place-hold-form.tsx';
import { ReleaseHoldDialog } from './release-hold-dialog.tsx';
import { actorName } from '../../lib/actor-name.ts';
import { usePendingChanges } from '../../components/approvals/approvals-api.ts';
import { PendingChangeNote } from '../../components/approvals/pending-change-note.tsx';
import { listLegalHolds } from './api/list-legal-holds.ts';

/** The screen's filters, kept in the URL by the route. */
export interface LegalHoldFilters {
  /** `all` lists released holds too; absent: active only. */
  show?: 'all' | undefined;
  type?: LegalHoldTargetType | undefined;
  /** Only the hold on this target (where a held record links to). */
  target?: string | undefined;
}

export function queryOf(filters: LegalHoldFilters): LegalHoldQuery {
  return { ...(filters.show === 'all' ? {} : { active_only: 'true' }), ...(filters.type === undefined ? {} : { target_type: filters.type }) };
}

/** The person a hold names, linked to where they can be looked at: a device user's page, a portal user's audit trail. */
function TargetLink({ hold }: { hold: LegalHold }) {
  if (hold.target_type === 'DeviceUser') {
    return (
      <Anchor
        style={{ whiteSpace: 'nowrap' }}
        renderRoot={(props) => <Link {...props} to="/dashboard/devices/users/$deviceUserReference" params={{ deviceUserReference: hold.target }} />}
      >
        {hold.target}
      </Anchor>
    );
  }
  return (
    <Anchor
      style={{ whiteSpace: 'nowrap' }}
      renderRoot={(props) => <Link {...props} to="/dashboard/account/audit" search={{ trail: 'users', user_id: hold.target }} />}
      aria-label={`${hold.target}: their activity in the audit trail`}
    >
      {hold.target}
    </Anchor>
  );
}

/**
 * The cases whose collect and hold placed an active hold (docs/cases.md): closing the last of them asks for its
 * release. Linked by reference: a case outside the user's teams opens as not found, so its title is not shown here.
 */
function PlacedByCases({ hold }: { hold: LegalHold }) {
  if (!hold.is_active || hold.placed_by_cases === undefined || hold.placed_by_cases.length === 0) return null;
  return (
    <Text size="xs" c="dimmed">
      Placed by {hold.placed_by_cases.length === 1 ? 'case' : 'cases'}{' '}
      {hold.placed_by_cases.map((caseRef, index) => (
        <span key={caseRef}>
          {index > 0 && ', '}
          <Anchor size="xs" renderRoot={(props) => <Link {...props} to="/dashboard/cases/$caseRef" params={{ caseRef }} />}>
            {caseRef}
          </Anchor>
        </span>
      ))}
    </Text>
  );
}

/** What an active hold covers, one kind a line; a released hold covers nothing. */
function CoverageCell({ hold }: { hold: LegalHold }) {
  const lines = coverageLines(hold);
  if (lines.length === 0) return <Text size="sm" c="dimmed">{hold.is_active ? '—' : 'Nothing (released)'}</Text>;
  return (
    <Stack gap={0}>
      {lines.map((line) => (
        <Text key={line} size="sm">
          {line}
        </Text>
      ))}
    </Stack>
  );
}

/** The recordings' storage locks: a bar while they are being set or cleared, the outcome after. */
function SyncCell({ hold }: { hold: LegalHold }) {
  const progress = syncProgress(hold);
  if (progress === undefined) return <Text size="sm" c="dimmed">{hold.target_type === 'PortalUser' ? 'No recordings' : '—'}</Text>;
  return (
    <Stack gap={4} miw={160}>
      <Text size="sm" c={progress.state === 'failed' ? 'red' : undefined}>
        {progress.label}
      </Text>
      {progress.state === 'syncing' && (
        <Progress
          value={progress.percent ?? 100}
          animated
          striped={progress.percent === undefined}
          aria-label={progress.label}
          size="sm"
        />
      )}
    </Stack>
  );
}

/**
 * Legal holds: who is held, since when and by whom; place one, release one (with a confirmation saying what that
 * frees). `history`: what opens a hold's earlier versions on its row (features/history, composed by the route).
 */
export function LegalHoldsScreen({
  filters,
  onFilters,
  history,
}: {
  filters: LegalHoldFilters;
  onFilters: (next: LegalHoldFilters) => void;
  history?: (hold: LegalHold) => ReactNode;
}) {
  const canPlace = useCan('legalHolds:Update');
  const canRelease = useCan('legalHolds:Release');
  const [placing, setPlacing] = useState(false);
  const [releasing, setReleasing] = useState<LegalHold | undefined>(undefined);
  const list = useLegalHolds(queryOf(filters), isSyncing);
  // Releases awaiting a second approver (four eyes), shown above the list and beside their hold.
  const pending = usePendingChanges(useCan('approvals:List').allowed);
  const releases = (pending.data && 'data' in pending.data ? pending.data.data : []).filter(
    (change) => change.kind === 'LegalHoldRelease' && (filters.target === undefined || change.target === filters.target),
  );
  const pendingOn = (hold: LegalHold) => releases.some((change) => change.target === hold.target && change.target_type === hold.target_type);

  const columns: Column<LegalHold>[] = [
    {
      header: 'Held',
      value: (row) => row.target,
      render: (row) => (
        <>
          <TargetLink hold={row} />
          <PlacedByCases hold={row} />
        </>
      ),
    },
    { header: 'Kind', value: (row) => LEGAL_HOLD_TARGET_LABELS[row.target_type] },
    {
      header: 'State',
      value: (row) => (row.is_active ? 'Active' : 'Released'),
      render: (row) => (
        <Stack gap={2}>
          <Badge color={row.is_active ? 'red' : 'gray'} variant="light" tt="none" miw="max-content">
            {row.is_active ? 'Active' : 'Released'}
          </Badge>
          {row.is_active && pendingOn(row) && (
            <Badge color="yellow" variant="light" tt="none" miw="max-content">
              Release awaiting approval
            </Badge>
          )}
        </Stack>
      ),
    },
    {
      header: 'Covers',
      value: (row) => coverageLines(row).join('; '),
      render: (row) => <CoverageCell hold={row} />,
    },
    {
      header: 'Storage lock',
      value: (row) => syncProgress(row)?.label ?? '',
      render: (row) => <SyncCell hold={row} />,
    },
    { header: 'First placed', value: (row) => row.created_at, render: (row) => formatDateTime(row.created_at) },
    {
      header: 'Last placed or released',
      value: (row) => `${row.updated_at ?? ''} ${row.updated_by === undefined ? '' : actorName(row.updated_by_actor, row.updated_by)}`.trim(),
      render: (row) => (
        <>
          <Text size="sm">{formatDateTime(row.updated_at ?? row.created_at)}</Text>
          {row.updated_by && (
            <Text size="xs" c="dimmed">
              by {actorName(row.updated_by_actor, row.updated_by)}
            </Text>
          )}
        </>
      ),
    },
  ];
  if (canRelease.allowed || canPlace.allowed || history !== undefined) {
    columns.push({
      header: 'Actions',
      exportable: false,
      value: () => '',
      render: (row) => (
        <Group gap="xs" wrap="nowrap">
          {history?.(row)}
          {row.is_active && !pendingOn(row) && canRelease.allowed && (
            <PermittedButton action="legalHolds:Release" size="xs" variant="default" color="red" onClick={() => setReleasing(row)} aria-label={`Release the hold on ${row.target}`}>
              Release
            </PermittedButton>
          )}
        </Group>
      ),
    });
  }

  return (
    <>
      <PageHeader
        title="Legal holds"
        description="A held person's records are kept whatever the retention policy says, until the hold is released. Recordings are also locked in storage while held."
        actions={
          canPlace.allowed && (
            <PermittedButton action="legalHolds:Update" onClick={() => setPlacing(true)}>
              Place a hold
            </PermittedButton>
          )
        }
      />
      {releases.length > 0 && (
        <Stack gap="sm" mb="md">
          {releases.map((change) => (
            <PendingChangeNote
              key={change.approval_reference}
              change={change}
              what="Release"
              title={`Release of the hold on ${change.target_type === undefined ? '' : LEGAL_HOLD_TARGET_LABELS[change.target_type].toLowerCase()} ${change.target ?? ''}`}
              invalidates={[listLegalHolds]}
            />
          ))}
        </Stack>
      )}
      <SimpleGrid cols={{ base: 1, sm: 2 }} mb="md" component="form" role="search" aria-label="Filter legal holds" onSubmit={(event) => event.preventDefault()}>
        <div>
          <Text size="sm" fw={500} id="holds-show" mb={4}>
            Show
          </Text>
          <SegmentedControl
            aria-labelledby="holds-show"
            value={filters.show ?? 'active'}
            onChange={(value) => onFilters({ ...filters, show: value === 'all' ? 'all' : undefined })}
            data={[
              { value: 'active', label: 'Active holds' },
              { value: 'all', label: 'Active and released' },
            ]}
          />
        </div>
        <div>
          <Text size="sm" fw={500} id="holds-type" mb={4}>
            On
          </Text>
          <SegmentedControl
            aria-labelledby="holds-type"
            value={filters.type ?? 'any'}
            onChange={(value) => onFilters({ ...filters, type: value === 'any' ? undefined : (value as LegalHoldTargetType) })}
            data={[
              { value: 'any', label: 'Everyone' },
              { value: 'DeviceUser', label: 'Device users' },
              { value: 'PortalUser', label: 'Portal users' },
            ]}
          />
        </div>
      </SimpleGrid>
      {!canPlace.allowed && (
        <Group mb="xs">
          <Text size="sm" c="dimmed">
            Your roles allow seeing legal holds, not placing or releasing them.
          </Text>
        </Group>
      )}
      {filters.target !== undefined && (
        <Group mb="xs" gap="xs">
          <Text size="sm">
            Showing the hold on <strong>{filters.target}</strong>.
          </Text>
          <Anchor size="sm" component="button" type="button" onClick={() => onFilters({ ...filters, target: undefined })}>
            Show every hold
          </Anchor>
        </Group>
      )}
      <CursorTable
        label="Legal holds"
        columns={columns}
        rows={filters.target === undefined ? list.items : list.items.filter((row) => row.target === filters.target)}
        rowKey={(row) => `${row.target_type}:${row.target}`}
        {...pagingOf(list)}
        empty={filters.show === 'all' ? 'No legal hold has been placed yet.' : 'Nobody is under a legal hold.'}
      />
      <Modal opened={placing} onClose={() => setPlacing(false)} title="Place a legal hold" closeButtonProps={{ 'aria-label': 'Close' }}>
        {placing && <PlaceHoldForm onDone={() => setPlacing(false)} />}
      </Modal>
      <Modal opened={releasing !== undefined} onClose={() => setReleasing(undefined)} title="Release the legal hold?" closeButtonProps={{ 'aria-label': 'Close' }}>
        {releasing && <ReleaseHoldDialog hold={releasing} onDone={() => setReleasing(undefined)} />}
      </Modal>
    </>
  );
}
