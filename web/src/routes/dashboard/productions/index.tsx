import { createFileRoute } from '@tanstack/react-router';
import { ProductionsScreen } from '../../../features/productions/productions-screen.tsx';

export const Route = createFileRoute('/dashboard/productions/')({
  component: ProductionsScreen,
});
