import { createFileRoute } from '@tanstack/react-router';
import { PendingScreen } from '../../../components/page/pending-screen.tsx';

export const Route = createFileRoute('/dashboard/services/comments')({
  component: CommentsPage,
});

function CommentsPage() {
  return <PendingScreen title="Comments" about="Comments on payloads across your organisation." />;
}
