import { createFileRoute } from '@tanstack/react-router';
import { TagsScreen } from '../../../features/access/tags-screen.tsx';

export const Route = createFileRoute('/dashboard/access/tags')({
  component: TagsScreen,
});
