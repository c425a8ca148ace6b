import { Alert as Notice, Badge, Button, Checkbox, Group, Loader, Stack, Tabs, Text, UnstyledButton } from '@mantine/core';
import { useState, type ReactNode } from 'react';
import { ALERT_SCOPES, type AlertScope } from '#shared/constants/alerts.ts';
import { BULK_LIMIT } from '#shared/constants/limits.ts';
import type { Alert, AlertPermissions } from '#shared/contract/entities/alerts.ts';
import { CursorTable, pagingOf, type Column } from '../../components/data/cursor-table.tsx';
import { PageHeader } from '../../components/page/page-header.tsx';
import { formatDateTime, formatNumber } from '../../lib/format.ts';
import { invertedRange } from '../../lib/search-params.ts';
import { AlertActions, type AlertSurface } from './alert-actions.tsx';
import { AlertDetail } from './alert-detail.tsx';
import { ALL_SCOPES, alertQueryOf, type AlertsSearch } from './alert-filters.ts';
import { alertTypeLabel, SCOPE_LABELS, SEVERITY_COLOURS } from './alert-labels.ts';
import { AlertListFilters } from './alert-list-filters.tsx';
import { canReadScope, STAFF_ALERT_PERMISSIONS } from './alert-permissions.ts';
import { useAlertPermissions } from './api/get-profile.ts';
import { useAlertList } from './api/list-alerts.ts';

interface AlertsScreenProps {
  surface: AlertSurface;
  search: AlertsSearch;
  onSearch: (next: AlertsSearch) => void;
  title: string;
  description: string;
  /** Header actions (staff: send a notification). */
  actions?: ReactNode;
}

/** The alerts screen of either console: a tab per scope the user may read, filters, a selectable list and the detail panel. */
export function AlertsScreen(props: AlertsScreenProps) {
  const tenantPermissions = useAlertPermissions();
  const permissions = props.surface === 'staff' ? STAFF_ALERT_PERMISSIONS : tenantPermissions;
  return (
    <>
      <PageHeader title={props.title} description={props.description} actions={props.actions} />
      {permissions === undefined ? <Loader size="sm" aria-label="Loading" /> : <AlertTabs {...props} permissions={permissions} />}
    </>
  );
}

function AlertTabs({ surface, search, onSearch, permissions }: AlertsScreenProps & { permissions: AlertPermissions }) {
  const readable = ALERT_SCOPES.filter((scope) => canReadScope(permissions, scope));
  const all = search.scope === ALL_SCOPES && readable.length > 0;
  const scope = all ? ALL_SCOPES : search.scope !== undefined && search.scope !== ALL_SCOPES && readable.includes(search.scope) ? search.scope : readable[0];
  if (scope === undefined) {
    return (
      <Notice color="gray" title="No alerts to show">
        Your roles do not allow reading operational or security alerts (ops_read, sec_read). An administrator can grant them in a role&rsquo;s alert permissions.
      </Notice>
    );
  }
  const set = (patch: Partial<AlertsSearch>) => onSearch({ ...search, ...patch });
  const tabs: Array<AlertScope | typeof ALL_SCOPES> = readable.length > 1 || all ? [...readable, ALL_SCOPES] : [...readable];
  return (
    <Tabs value={scope} onChange={(value) => set({ scope: (value ?? undefined) as AlertsSearch['scope'], alert: undefined })} keepMounted={false}>
      <Tabs.List mb="md">
        {readable.map((tab) => (
          <Tabs.Tab key={tab} value={tab}>
            {SCOPE_LABELS[tab]}
          </Tabs.Tab>
        ))}
        {readable.length > 1 && <Tabs.Tab value={ALL_SCOPES}>All</Tabs.Tab>}
      </Tabs.List>
      {tabs.map((tab) => (
        <Tabs.Panel key={tab} value={tab}>
          <AlertList surface={surface} scope={tab} search={search} onChange={set} permissions={permissions} />
        </Tabs.Panel>
      ))}
      <AlertDetail
        surface={surface}
        reference={search.alert}
        client={search.alert_client ?? 'admin'}
        permissions={permissions}
        onClose={() => set({ alert: undefined, alert_client: undefined })}
      />
    </Tabs>
  );
}

function AlertList({
  surface,
  scope,
  search,
  onChange,
  permissions,
}: {
  surface: AlertSurface;
  /** One scope, or every readable scope together (`all`). */
  scope: AlertScope | typeof ALL_SCOPES;
  search: AlertsSearch;
  onChange: (patch: Partial<AlertsSearch>) => void;
  permissions: AlertPermissions;
}) {
  const list = useAlertList(surface, alertQueryOf(search, scope), !invertedRange(search.from, search.to));
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const chosen = list.items.filter((alert) => selected.has(alert.alert_reference));
  const toggle = (reference: string, on: boolean) =>
    setSelected((previous) => {
      const next = new Set(previous);
      if (on && next.size < BULK_LIMIT) next.add(reference);
      else next.delete(reference);
      return next;
    });
  // Clearing and dismissing act on alerts of one scope: in the "All" list, the scope the selected alerts share.
  const chosenScopes = [...new Set(chosen.map((alert) => alert.alert_scope))];
  const actionScope: AlertScope | undefined = scope !== ALL_SCOPES ? scope : chosenScopes.length <= 1 ? (chosenScopes[0] ?? ALERT_SCOPES.find((tab) => canReadScope(permissions, tab))) : undefined;
  const open = (alert: Alert) => onChange({ alert: alert.alert_reference, alert_client: surface === 'staff' ? (alert.client ?? 'admin') : undefined });

  const columns: readonly Column<Alert>[] = [
    {
      header: 'Select',
      exportable: false,
      value: () => '',
      render: (row) => (
        <Checkbox
          aria-label={`Select alert ${row.alert_subject}, ${formatDateTime(row.last_occurrence)}`}
          checked={selected.has(row.alert_reference)}
          disabled={!selected.has(row.alert_reference) && selected.size >= BULK_LIMIT}
          onChange={(event) => toggle(row.alert_reference, event.currentTarget.checked)}
        />
      ),
    },
    {
      header: 'Severity',
      value: (row) => row.alert_severity,
      render: (row) => (
        <Badge miw="max-content" color={SEVERITY_COLOURS[row.alert_severity]} variant="light" tt="none">
          {row.alert_severity}
        </Badge>
      ),
    },
    {
      header: 'Alert',
      value: (row) => row.alert_subject,
      render: (row) => (
        <UnstyledButton onClick={() => open(row)} aria-label={`Open alert ${row.alert_subject}`} td="underline" c="var(--mantine-color-anchor)">
          {row.alert_subject}
        </UnstyledButton>
      ),
    },
    {
      header: 'Message',
      value: (row) => row.alert_message,
      render: (row) => (
        <Text size="sm" lineClamp={2} maw={280}>
          {row.alert_message}
        </Text>
      ),
    },
    ...(scope === ALL_SCOPES ? [{ header: 'Kind', value: (row: Alert) => SCOPE_LABELS[row.alert_scope] }] : []),
    { header: 'Type', value: (row) => alertTypeLabel(row.alert_type) },
    ...(surface === 'staff' ? [{ header: 'Client', value: (row: Alert) => row.client ?? 'admin' }] : []),
    { header: 'State', value: (row) => row.alert_state },
    { header: 'Times', value: (row) => row.occurrences?.length ?? 1, render: (row) => formatNumber(row.occurrences?.length ?? 1) },
    {
      header: 'Occurred',
      value: (row) => `${row.first_occurrence} to ${row.last_occurrence}`,
      render: (row) => (
        <>
          <NoWrap>{formatDateTime(row.last_occurrence)}</NoWrap>
          {row.first_occurrence !== row.last_occurrence && <NoWrap dimmed>since {formatDateTime(row.first_occurrence)}</NoWrap>}
        </>
      ),
    },
  ];

  return (
    <Stack>
      <AlertListFilters search={search} onChange={(patch) => { setSelected(new Set()); onChange(patch); }} />
      <Group justify="space-between" wrap="wrap">
        <Group gap="xs">
          <Button
            size="xs"
            variant="subtle"
            disabled={list.items.length === 0}
            onClick={() => setSelected(new Set(list.items.slice(0, BULK_LIMIT).map((alert) => alert.alert_reference)))}
          >
            Select {list.items.length > BULK_LIMIT ? `first ${BULK_LIMIT}` : 'all shown'}
          </Button>
          <Button size="xs" variant="subtle" disabled={selected.size === 0} onClick={() => setSelected(new Set())}>
            Select none
          </Button>
          <Text size="sm" c="dimmed" aria-live="polite">
            {formatNumber(chosen.length)} selected (at most {BULK_LIMIT} at once)
          </Text>
        </Group>
        {actionScope === undefined ? (
          <Text size="sm" c="dimmed">
            Select alerts of one kind to clear or dismiss them together.
          </Text>
        ) : (
          <AlertActions surface={surface} scope={actionScope} alerts={chosen} permissions={permissions} size="xs" bulk onDone={() => setSelected(new Set())} />
        )}
      </Group>
      <CursorTable
        label={scope === ALL_SCOPES ? 'All alerts' : `${SCOPE_LABELS[scope]} alerts`}
        columns={columns}
        rows={list.items}
        rowKey={(row) => `${row.client ?? ''}/${row.alert_reference}`}
        {...pagingOf(list)}
        empty="No alerts match these filters."
      />
    </Stack>
  );
}

/** A date that stays on one line in a narrow column. */
function NoWrap({ children, dimmed = false }: { children: ReactNode; dimmed?: boolean }) {
  return (
    <Text size={dimmed ? 'xs' : 'sm'} c={dimmed ? 'dimmed' : undefined} style={{ whiteSpace: 'nowrap' }}>
      {children}
    </Text>
  );
}
