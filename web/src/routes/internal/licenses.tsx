import { createFileRoute } from '@tanstack/react-router';
import { ClientLicencesScreen } from '../../features/licences/client-licences-screen.tsx';

export const Route = createFileRoute('/internal/licenses')({
  component: ClientLicencesScreen,
});
