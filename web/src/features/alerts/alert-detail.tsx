import { Alert as Notice, Anchor, Badge, Drawer, Group, List, Loader, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import type { Alert, AlertPermissions } from '#shared/contract/entities/alerts.ts';
import { actorName } from '../../lib/actor-name.ts';
import { formatDateTime, formatNumber } from '../../lib/format.ts';
import { AlertActions, type AlertSurface } from './alert-actions.tsx';
import { alertTypeLabel, isPortalLink, SCOPE_LABELS, SEVERITY_COLOURS } from './alert-labels.ts';
import { useAlert } from './api/get-alert.ts';

/** One alert in a side panel: what happened, each occurrence, links to what it concerns, and Clear / Dismiss. */
export function AlertDetail({
  surface,
  reference,
  client,
  permissions,
  onClose,
}: {
  surface: AlertSurface;
  reference: string | undefined;
  client: string;
  permissions: AlertPermissions;
  onClose: () => void;
}) {
  return (
    <Drawer opened={reference !== undefined} onClose={onClose} position="right" size="lg" title="Alert" closeButtonProps={{ 'aria-label': 'Close alert' }}>
      {reference !== undefined && <AlertBody surface={surface} reference={reference} client={client} permissions={permissions} />}
    </Drawer>
  );
}

/**
 * Who dismissed the alert, named: each stable key of `dismissed_by` by the actor kept beside it when there is one (a
 * dismissal from before actors were kept shows its key, an e-mail then).
 */
function dismissersOf(alert: Alert): string[] {
  const keys = (alert.dismissed_by ?? '').split(',').map((key) => key.trim()).filter(Boolean);
  const actors = new Map((alert.dismissed_by_actors ?? []).map((actor) => [actor.reference, actor]));
  return keys.map((key) => actorName(actors.get(key), key));
}

function AlertBody({ surface, reference, client, permissions }: { surface: AlertSurface; reference: string; client: string; permissions: AlertPermissions }) {
  const query = useAlert(surface, reference, client);
  if (query.isLoading) return <Loader size="sm" aria-label="Loading" />;
  if (query.data === undefined) return <Notice color="red" title="The alert could not be loaded">{query.error?.message ?? 'Not found.'}</Notice>;
  const alert: Alert = query.data;
  const occurrences = [...(alert.occurrences ?? [])].sort((a, b) => b.time.localeCompare(a.time));
  const links = (alert.related_entities ?? []).map((entity) => entity.page_link).filter(isPortalLink);
  const dismissedBy = dismissersOf(alert);

  return (
    <Stack>
      <Title order={2} size="h3">
        {alert.alert_subject}
      </Title>
      <Group gap="xs">
        <Badge miw="max-content" color={SEVERITY_COLOURS[alert.alert_severity]} variant="light" tt="none">
          {alert.alert_severity}
        </Badge>
        <Badge miw="max-content" color={alert.alert_state === 'Triggered' ? 'red' : 'gray'} variant="outline" tt="none">
          {alert.alert_state}
        </Badge>
        <Badge miw="max-content" color="gray" variant="outline" tt="none">
          {SCOPE_LABELS[alert.alert_scope]}
        </Badge>
      </Group>
      <Text style={{ whiteSpace: 'pre-wrap' }}>{alert.alert_message}</Text>
      <AlertActions surface={surface} scope={alert.alert_scope} alerts={[alert]} permissions={permissions} />
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs">
        <Fact label="Type" value={alertTypeLabel(alert.alert_type)} />
        <Fact label="Occurrences" value={formatNumber(alert.occurrences?.length ?? 1)} />
        <Fact label="First occurrence" value={formatDateTime(alert.first_occurrence)} />
        <Fact label="Last occurrence" value={formatDateTime(alert.last_occurrence)} />
        {alert.expires_after !== undefined && <Fact label="Expires" value={formatDateTime(alert.expires_after)} />}
        {alert.alert_key !== undefined && <Fact label="Key" value={`${alert.alert_key}${alert.alert_key_type ? ` (${alert.alert_key_type})` : ''}`} />}
        {alert.api_action !== undefined && <Fact label="Raised by" value={alert.api_action} />}
        {surface === 'staff' && <Fact label="Client" value={alert.client ?? client} />}
        {alert.cleared_at !== undefined && <Fact label="Cleared" value={`${formatDateTime(alert.cleared_at)}${alert.cleared_by ? ` by ${actorName(alert.cleared_by_actor, alert.cleared_by)}` : ''}`} />}
        {alert.cleared_reason !== undefined && <Fact label="Reason for clearing" value={alert.cleared_reason} />}
        {dismissedBy.length > 0 && <Fact label="Dismissed by" value={dismissedBy.join(', ')} />}
      </SimpleGrid>
      {links.length > 0 && (
        <div>
          <Title order={3} size="h5" mb={4}>
            Related
          </Title>
          <List size="sm">
            {links.map((link) => (
              <List.Item key={link}>
                {/* A page link is a portal path computed by the server; the router treats it as any in-app path. */}
                <Anchor component={Link} to={link as '/'} underline="always">
                  {link}
                </Anchor>
              </List.Item>
            ))}
          </List>
        </div>
      )}
      <div>
        <Title order={3} size="h5" mb={4}>
          Occurrences
        </Title>
        {occurrences.length === 0 ? (
          <Text size="sm" c="dimmed">
            Only the first occurrence is recorded.
          </Text>
        ) : (
          <Table aria-label="Occurrences" striped verticalSpacing={4}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">Time</Table.Th>
                <Table.Th scope="col">Message</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {occurrences.map((occurrence, index) => (
                <Table.Tr key={`${occurrence.time}-${index}`}>
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDateTime(occurrence.time)}</Table.Td>
                  <Table.Td>{occurrence.message}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </div>
    </Stack>
  );
}

function Fact({ label, value }: { label: string; value: string }) {
  return (
    <div>
      <Text size="xs" c="dimmed" fw={600}>
        {label}
      </Text>
      <Text size="sm">{value}</Text>
    </div>
  );
}
