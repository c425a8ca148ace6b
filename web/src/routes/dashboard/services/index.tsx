import { createFileRoute } from '@tanstack/react-router';
import { PendingScreen } from '../../../components/page/pending-screen.tsx';

export const Route = createFileRoute('/dashboard/services/')({
  component: ServicesPage,
});

function ServicesPage() {
  return <PendingScreen title="Services" about="Recorded payloads by service." />;
}
