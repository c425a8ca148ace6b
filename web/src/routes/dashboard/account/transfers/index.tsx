import { createFileRoute } from '@tanstack/react-router';
import { PendingScreen } from '../../../../components/page/pending-screen.tsx';

export const Route = createFileRoute('/dashboard/account/transfers/')({
  component: TransfersPage,
});

function TransfersPage() {
  return <PendingScreen title="Transfers" about="Exports of payloads to your own storage." />;
}
