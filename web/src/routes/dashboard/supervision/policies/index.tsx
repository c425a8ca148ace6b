import { createFileRoute } from '@tanstack/react-router';
import { PoliciesScreen } from '../../../../features/supervision/policies/policies-screen.tsx';

export const Route = createFileRoute('/dashboard/supervision/policies/')({
  component: PoliciesScreen,
});
