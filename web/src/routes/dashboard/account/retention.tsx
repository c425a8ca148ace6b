import { createFileRoute } from '@tanstack/react-router';
import { RetentionScreen } from '../../../features/retention/retention-screen.tsx';

export const Route = createFileRoute('/dashboard/account/retention')({
  component: RetentionScreen,
});
