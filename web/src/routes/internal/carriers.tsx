import { createFileRoute } from '@tanstack/react-router';
import { CarriersScreen } from '../../features/internal/carriers-screen.tsx';

export const Route = createFileRoute('/internal/carriers')({
  component: CarriersScreen,
});
