import { createFileRoute } from '@tanstack/react-router';
import { TransferDetail } from '../../../../features/transfers/transfer-detail.tsx';
import { TransferPending } from '../../../../features/transfers/transfer-pending.tsx';

export const Route = createFileRoute('/dashboard/account/transfers/$transferId')({
  // The page renders once the transfer is here (fetched while the page's code still loads); the API module is imported
  // here, not statically, so it stays out of the first chunk (loaders are not split from it). A refused fetch stays in
  // the query cache and the page shows it under its own title (TransferDetail's boundary).
  loader: async ({ context, params }) => {
    const { transferQueryOptions } = await import('../../../../features/transfers/api/get-transfer.ts');
    await context.queryClient.ensureQueryData(transferQueryOptions(context.session, params.transferId)).catch(() => undefined);
  },
  pendingComponent: TransferPending,
  component: TransferPage,
});

function TransferPage() {
  const { transferId } = Route.useParams();
  // Keyed by id: a re-run opens the new transfer with its own file filter and paging.
  return <TransferDetail key={transferId} transferId={transferId} />;
}
