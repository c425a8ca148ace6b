import { Alert, Anchor, Loader, Paper, Text } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { FIXITY_NOT_RUN, FixityFigures } from '../../components/data/fixity-figures.tsx';
import { useCan } from '../../lib/use-can.ts';
import { useClientIntegrity } from './api/list-client-integrity.ts';

/** A client's latest stored recordings check (its fixity figures), its failures linked to the client's alerts. */
export function ClientIntegrity({ client }: { client: string }) {
  const permission = useCan('internal:ReadStatistics');
  const checks = useClientIntegrity(client, permission.allowed);
  if (!permission.allowed) return <Text c="dimmed">{permission.reason}</Text>;
  const latest = checks.data?.checks[0];
  return (
    <Paper withBorder p="md">
      {checks.error && checks.data === undefined ? (
        <Alert color="red" title="The stored recordings check could not be loaded">
          {checks.error.message}
        </Alert>
      ) : checks.data === undefined ? (
        <Loader size="sm" aria-label="Loading the stored recordings check" />
      ) : latest === undefined ? (
        <Text size="sm">{FIXITY_NOT_RUN}</Text>
      ) : (
        <FixityFigures
          check={latest}
          alertLink={(alertReference, label) => (
            <Anchor size="sm" renderRoot={(props) => <Link {...props} to="/internal/alerts" search={{ alert: alertReference, alert_client: client }} />}>
              {label}
            </Anchor>
          )}
        />
      )}
    </Paper>
  );
}
