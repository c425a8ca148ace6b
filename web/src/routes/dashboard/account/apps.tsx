import { createFileRoute } from '@tanstack/react-router';
import { AppsScreen } from '../../../features/client-apps/apps-screen.tsx';

export const Route = createFileRoute('/dashboard/account/apps')({
  component: AppsScreen,
});
