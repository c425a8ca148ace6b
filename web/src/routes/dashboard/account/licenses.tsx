import { createFileRoute } from '@tanstack/react-router';
import { PendingScreen } from '../../../components/page/pending-screen.tsx';

export const Route = createFileRoute('/dashboard/account/licenses')({
  component: LicencesPage,
});

function LicencesPage() {
  return <PendingScreen title="Licences" about="Your licence limits and use per service." />;
}
