import { createFileRoute } from '@tanstack/react-router';
import { PageHeader } from '../../components/page/page-header.tsx';

export const Route = createFileRoute('/dashboard/')({
  component: DashboardPage,
});

function DashboardPage() {
  return <PageHeader title="Dashboard" />;
}
