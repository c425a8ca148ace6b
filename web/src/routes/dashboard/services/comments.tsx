import { createFileRoute } from '@tanstack/react-router';
import { PageHeader } from '../../../components/page/page-header.tsx';
import { CommentsList } from '../../../features/recordings/lists/comments-list.tsx';
import { CommentsSearch } from '../../../features/recordings/lists/search.ts';

export const Route = createFileRoute('/dashboard/services/comments')({
  validateSearch: CommentsSearch,
  component: CommentsPage,
});

function CommentsPage() {
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  return (
    <>
      <PageHeader title="Comments" description="Comments on recordings across your organisation, newest first. Open a recording to reply or edit." />
      <CommentsList search={search} onSearch={(next) => void navigate({ search: next, replace: true })} />
    </>
  );
}
