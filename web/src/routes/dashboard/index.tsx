import { createFileRoute } from '@tanstack/react-router';
import { PageHeader } from '../../components/page/page-header.tsx';
import { dashboardQueryOptions } from '../../features/dashboard/api/get-dashboard.ts';
import { DashboardView } from '../../features/dashboard/dashboard-view.tsx';

export const Route = createFileRoute('/dashboard/')({
  // Not awaited: the counts load while the screen's code does, and the page shows its frame meanwhile.
  loader: ({ context }) => void context.queryClient.prefetchQuery(dashboardQueryOptions(context.session)),
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
