import { createFileRoute } from '@tanstack/react-router';
import { PendingScreen } from '../../components/page/pending-screen.tsx';

export const Route = createFileRoute('/internal/carriers')({
  component: CarriersPage,
});

function CarriersPage() {
  return <PendingScreen title="Carriers" about="Mobile carriers seen by devices, by country." />;
}
