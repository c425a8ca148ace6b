import { createFileRoute } from '@tanstack/react-router';
import { PendingScreen } from '../../components/page/pending-screen.tsx';

export const Route = createFileRoute('/internal/licenses')({
  component: LicencesPage,
});

function LicencesPage() {
  return <PendingScreen title="Licences" about="Licence limits and use of every client." />;
}
