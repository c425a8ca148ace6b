import { createFileRoute } from '@tanstack/react-router';
import { PendingScreen } from '../../../components/page/pending-screen.tsx';

export const Route = createFileRoute('/dashboard/account/audit')({
  component: AuditPage,
});

function AuditPage() {
  return <PendingScreen title="Audit" about="Who did what in the portal, in a tamper-evident trail." />;
}
