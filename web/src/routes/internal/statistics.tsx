import { createFileRoute } from '@tanstack/react-router';
import { StatisticsScreen } from '../../features/internal/statistics-screen.tsx';

export const Route = createFileRoute('/internal/statistics')({
  component: StatisticsScreen,
});
