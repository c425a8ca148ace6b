import { Modal } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { createFileRoute } from '@tanstack/react-router';
import { PermittedButton } from '../../components/access/permitted-button.tsx';
import { AlertsSearch } from '../../features/alerts/alert-filters.ts';
import { AlertsScreen } from '../../features/alerts/alerts-screen.tsx';
import { NotifyForm } from '../../features/alerts/notify-form.tsx';

export const Route = createFileRoute('/internal/alerts')({
  validateSearch: AlertsSearch,
  component: InternalAlertsPage,
});

/** The provider's alerts (platform events and every notification sent), and sending a notification to clients. */
function InternalAlertsPage() {
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  const [opened, { open, close }] = useDisclosure(false);
  return (
    <>
      <AlertsScreen
        surface="staff"
        title="Alerts"
        description="Platform alerts and the notifications sent to clients. A notification appears in each chosen client's alerts."
        search={search}
        onSearch={(next) => void navigate({ search: next, replace: true })}
        actions={
          <PermittedButton action="internal:Notify" onClick={open}>
            Send notification
          </PermittedButton>
        }
      />
      <Modal opened={opened} onClose={close} title="Send a notification" closeButtonProps={{ 'aria-label': 'Close' }} size="lg">
        <NotifyForm onDone={close} />
      </Modal>
    </>
  );
}
