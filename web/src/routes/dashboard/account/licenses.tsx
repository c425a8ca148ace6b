import { createFileRoute } from '@tanstack/react-router';
import { LicencesScreen } from '../../../features/licences/licences-screen.tsx';

export const Route = createFileRoute('/dashboard/account/licenses')({
  component: LicencesScreen,
});
