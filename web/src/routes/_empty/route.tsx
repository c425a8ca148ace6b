import { createFileRoute, Outlet } from '@tanstack/react-router';
import { EmptyLayout } from '../../components/layout/empty-layout.tsx';

/** The empty layout: /sign-in. */
export const Route = createFileRoute('/_empty')({
  component: () => (
    <EmptyLayout>
      <Outlet />
    </EmptyLayout>
  ),
});
