import { createFileRoute } from '@tanstack/react-router';
import { ApprovalsScreen } from '../../../features/approvals/approvals-screen.tsx';

export const Route = createFileRoute('/dashboard/account/approvals')({
  component: ApprovalsScreen,
});
