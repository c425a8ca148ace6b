import { createFileRoute } from '@tanstack/react-router';
import { PendingScreen } from '../../../../components/page/pending-screen.tsx';

export const Route = createFileRoute('/dashboard/account/transfers/config')({
  component: TransferConfigurationPage,
});

function TransferConfigurationPage() {
  return <PendingScreen title="Transfer configuration" about="Where and how transfers are delivered." />;
}
