import { createFileRoute } from '@tanstack/react-router';
import { CasesScreen } from '../../../features/cases/cases-screen.tsx';

export const Route = createFileRoute('/dashboard/cases/')({
  component: CasesScreen,
});
