import { createFileRoute } from '@tanstack/react-router';
import { PendingScreen } from '../../../components/page/pending-screen.tsx';

export const Route = createFileRoute('/dashboard/account/migrations')({
  component: MigrationsPage,
});

function MigrationsPage() {
  return <PendingScreen title="Migrations" about="Imports from the legacy platform and their results." />;
}
