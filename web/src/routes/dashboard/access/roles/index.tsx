import { createFileRoute } from '@tanstack/react-router';
import { RolesScreen } from '../../../../features/access/roles-screen.tsx';

export const Route = createFileRoute('/dashboard/access/roles/')({
  component: RolesScreen,
});
