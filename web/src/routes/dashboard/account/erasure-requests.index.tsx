import { createFileRoute } from '@tanstack/react-router';
import { ErasureRequestsScreen } from '../../../features/erasure/erasure-requests-screen.tsx';

export const Route = createFileRoute('/dashboard/account/erasure-requests/')({
  component: ErasureRequestsScreen,
});
