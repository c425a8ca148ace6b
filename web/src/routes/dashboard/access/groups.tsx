import { createFileRoute } from '@tanstack/react-router';
import { GroupsScreen } from '../../../features/access/groups-screen.tsx';

export const Route = createFileRoute('/dashboard/access/groups')({
  component: GroupsScreen,
});
