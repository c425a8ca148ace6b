import { createFileRoute } from '@tanstack/react-router';
import { PendingScreen } from '../../../../components/page/pending-screen.tsx';

export const Route = createFileRoute('/dashboard/account/transfers/$transferId')({
  component: TransferPage,
});

function TransferPage() {
  return <PendingScreen title="Transfer" about="One transfer and its files." />;
}
