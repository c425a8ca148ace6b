import { Alert, Anchor, Loader, Paper, Text, Title } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { FIXITY_NOT_RUN, FixityFigures } from '../../components/data/fixity-figures.tsx';
import { useCan } from '../../lib/use-can.ts';
import { useIntegrityChecks } from './api/list-integrity-checks.ts';

/**
 * "Stored recordings check": the latest run of the daily fixity job (GET integrity), its failures linked to their
 * `sec` alerts. Shown to those who may read the audit trail, the right the endpoint asks.
 */
export function IntegrityPanel() {
  const allowed = useCan('activities:List').allowed;
  const checks = useIntegrityChecks(allowed);
  if (!allowed) return null;
  const latest = checks.data?.checks[0];
  return (
    <section aria-labelledby="integrity-title">
      <Title order={2} size="h4" id="integrity-title" mb="xs">
        Stored recordings check
      </Title>
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
              <Anchor size="sm" renderRoot={(props) => <Link {...props} to="/dashboard/account/alerts" search={{ scope: 'sec', alert: alertReference }} />}>
                {label}
              </Anchor>
            )}
          />
        )}
      </Paper>
    </section>
  );
}
