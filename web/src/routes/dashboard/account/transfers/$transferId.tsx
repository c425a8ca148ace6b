import { createFileRoute } from '@tanstack/react-router';
import { TransferDetail } from '../../../../features/transfers/transfer-detail.tsx';

export const Route = createFileRoute('/dashboard/account/transfers/$transferId')({
  component: TransferPage,
});

function TransferPage() {
  const { transferId } = Route.useParams();
  // Keyed by id: a re-run opens the new transfer with its own file filter and paging.
  return <TransferDetail key={transferId} transferId={transferId} />;
}
