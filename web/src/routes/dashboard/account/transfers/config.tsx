import { createFileRoute } from '@tanstack/react-router';
import { z } from 'zod/mini';
import { optionalText } from '../../../../lib/search-params.ts';
import { ConfigsScreen } from '../../../../features/transfers/configs-screen.tsx';

/** `?config=<reference>` opens that configuration (the link from a transfer). */
const ConfigSearch = z.object({ config: optionalText(255) });

export const Route = createFileRoute('/dashboard/account/transfers/config')({
  validateSearch: ConfigSearch,
  component: TransferConfigurationPage,
});

function TransferConfigurationPage() {
  const { config } = Route.useSearch();
  const navigate = Route.useNavigate();
  return <ConfigsScreen opened={config} onOpened={(next) => void navigate({ search: { config: next }, replace: true })} />;
}
