import { createFileRoute } from '@tanstack/react-router';
import { ClientsScreen } from '../../features/internal/clients-screen.tsx';

export const Route = createFileRoute('/internal/')({
  component: ClientsScreen,
});
