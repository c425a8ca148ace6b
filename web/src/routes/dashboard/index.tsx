import { createFileRoute } from '@tanstack/react-router';
import { PageHeader } from '../../components/page/page-header.tsx';
import { DashboardView } from '../../features/dashboard/dashboard-view.tsx';

export const Route = createFileRoute('/dashboard/')({
  component: DashboardPage,
});

function DashboardPage() {
  return (
    <>
      <PageHeader title="Dashboard" description="Devices and device users of your organisation at a glance." />
      <DashboardView />
    </>
  );
}
