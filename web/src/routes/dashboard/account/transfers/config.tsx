import { createFileRoute } from '@tanstack/react-router';
import { z } from 'zod/mini';
import { optionalText } from '../../../../lib/search-params.ts';
import { ConfigsScreen } from '../../../../features/transfers/configs-screen.tsx';
import { getConfig } from '../../../../features/transfers/api/get-config.ts';
import { RecordHistory } from '../../../../features/history/record-history.tsx';

/** `?config=<reference>` opens that configuration (the link from a transfer). */
const ConfigSearch = z.object({ config: optionalText(255) });

export const Route = createFileRoute('/dashboard/account/transfers/config')({
  validateSearch: ConfigSearch,
  component: TransferConfigurationPage,
});

function TransferConfigurationPage() {
  const { config } = Route.useSearch();
  const navigate = Route.useNavigate();
  return (
    <ConfigsScreen
      opened={config}
      onOpened={(next) => void navigate({ search: { config: next }, replace: true })}
      // Its passwords are never in a version: each shows as the server's marker, saying only whether a change replaced it.
      history={(shown) => (
        <RecordHistory
          entity="transfer-config"
          reference={shown.transfer_config_reference}
          readAction={getConfig.action}
          current={shown}
          name={`transfer configuration ${shown.transfer_config_reference}`}
        />
      )}
    />
  );
}
