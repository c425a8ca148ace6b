import { Alert, Button, Card, Group, Loader, Modal, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import type { Licences } from '#shared/contract/entities/licences.ts';
import { PermittedButton } from '../../components/access/permitted-button.tsx';
import { PageHeader } from '../../components/page/page-header.tsx';
import { LicenceForm } from './licence-form.tsx';
import { LicenceUsageBars } from './licence-usage.tsx';
import { useClientLicences } from './api/list-client-licences.ts';

/** One client's licences as a card: the bars, and Edit limits for staff whose roles allow it. */
export function ClientLicenceCard({ licences, onEdit, headingOrder = 2 }: { licences: Licences; onEdit: () => void; headingOrder?: 2 | 3 }) {
  return (
    <Card withBorder padding="lg">
      <Group justify="space-between" mb="md">
        <Title order={headingOrder} size="h4">
          {licences.client}
        </Title>
        <PermittedButton action="internal:UpdateLicenses" size="xs" variant="default" onClick={onEdit} aria-label={`Edit licence limits of ${licences.client}`}>
          Edit limits
        </PermittedButton>
      </Group>
      <LicenceUsageBars data={licences.data} columns={4} />
    </Card>
  );
}

/** Licence limits and use of every client (or one), each editable. */
export function ClientLicences({ client, headingOrder = 2 }: { client?: string; headingOrder?: 2 | 3 }) {
  const list = useClientLicences(client);
  const [editing, setEditing] = useState<Licences | undefined>(undefined);
  return (
    <Stack>
      {list.isLoading && <Loader size="sm" aria-label="Loading" />}
      {list.error && list.items.length === 0 && (
        <Alert color="red" title="The licences could not be loaded">
          {list.error.message}
        </Alert>
      )}
      {!list.isLoading && list.items.length === 0 && !list.error && <Text c="dimmed">No clients yet.</Text>}
      {list.items.map((licences) => (
        <ClientLicenceCard key={licences.client} licences={licences} headingOrder={headingOrder} onEdit={() => setEditing(licences)} />
      ))}
      {list.hasNextPage && (
        <Group justify="center">
          <Button variant="light" onClick={() => void list.fetchNextPage()} loading={list.isFetchingNextPage}>
            Load more
          </Button>
        </Group>
      )}
      <Modal opened={editing !== undefined} onClose={() => setEditing(undefined)} title={`Licence limits of ${editing?.client ?? ''}`} size="lg" closeButtonProps={{ 'aria-label': 'Close' }}>
        {editing && <LicenceForm licences={editing} onDone={() => setEditing(undefined)} />}
      </Modal>
    </Stack>
  );
}

export function ClientLicencesScreen() {
  return (
    <>
      <PageHeader title="Licences" description="Each client's licence limits per service against what it uses. Limits are whole numbers from 0 to 100,000." />
      <ClientLicences />
    </>
  );
}
