import { createFileRoute, Outlet } from '@tanstack/react-router';
import { LandingLayout } from '../../components/layout/landing-layout.tsx';

/** The landing layout: /, /cookies, /privacy, /terms. */
export const Route = createFileRoute('/_landing')({
  component: () => (
    <LandingLayout>
      <Outlet />
    </LandingLayout>
  ),
});
