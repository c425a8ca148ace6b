import { createFileRoute } from '@tanstack/react-router';
import { PendingScreen } from '../../../components/page/pending-screen.tsx';

export const Route = createFileRoute('/dashboard/account/apps')({
  component: AppsPage,
});

function AppsPage() {
  return <PendingScreen title="Apps" about="Client apps with machine access to your data." />;
}
