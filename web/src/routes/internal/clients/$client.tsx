import { Modal, Stack, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { createFileRoute } from '@tanstack/react-router';
import { PermittedButton } from '../../../components/access/permitted-button.tsx';
import { ClientIntegrity } from '../../../features/internal/client-integrity.tsx';
import { ClientOverview } from '../../../features/internal/client-overview.tsx';
import { ClientLicences } from '../../../features/licences/client-licences-screen.tsx';
import { useSession } from '../../../lib/session/session-context.tsx';
import { RequestAccessForm } from '../../../features/support/request-access-form.tsx';
import { StaffRequestsTable } from '../../../features/support/staff-requests-table.tsx';
import { useClientRequests } from '../../../features/support/api/list-client-requests.ts';
import { usePendingCount } from '../../../features/support/api/list-staff-requests.ts';

export const Route = createFileRoute('/internal/clients/$client')({
  component: ClientPage,
});

/** One client as staff see it: its size, its stored recordings check, its licences (editable) and the support access asked of it. */
function ClientPage() {
  const { client } = Route.useParams();
  const { session } = useSession();
  const [opened, { open, close }] = useDisclosure(false);
  const pending = usePendingCount();
  const requests = useClientRequests(client, pending);
  return (
    <Stack gap="lg">
      <div>
        <ClientOverview client={client} />
      </div>
      <section aria-labelledby="client-integrity">
        <Title order={2} size="h3" id="client-integrity" mb="sm">
          Stored recordings check
        </Title>
        <ClientIntegrity client={client} />
      </section>
      <section aria-labelledby="client-licences">
        <Title order={2} size="h3" id="client-licences" mb="sm">
          Licences
        </Title>
        <ClientLicences client={client} headingOrder={3} />
      </section>
      <section aria-labelledby="client-support">
        <Title order={2} size="h3" id="client-support" mb="sm">
          Support access
        </Title>
        <PermittedButton action="internal:RequestSupportAccess" onClick={open} mb="sm">
          Request access to {client}
        </PermittedButton>
        <StaffRequestsTable
          list={requests}
          showClient={false}
          label={`Support access requests to ${client}`}
          empty={`No support access has been asked of ${client}.`}
          onEnter={(request, target) => void session.enterSupportMode(request.request_reference, target)}
        />
      </section>
      <Modal opened={opened} onClose={close} title="Request support access" closeButtonProps={{ 'aria-label': 'Close' }}>
        <RequestAccessForm client={client} onDone={close} />
      </Modal>
    </Stack>
  );
}
