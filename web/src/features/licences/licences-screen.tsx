import { Alert, Card, Loader } from '@mantine/core';
import { PageHeader } from '../../components/page/page-header.tsx';
import { LicenceUsageBars } from './licence-usage.tsx';
import { useLicences } from './api/get-licences.ts';

/** The tenant's licences: per service, how many are in use against the limit the provider set. */
export function LicencesScreen() {
  const licences = useLicences();
  return (
    <>
      <PageHeader
        title="Licences"
        description="How many licences each service uses against the limit your provider set. Ask your provider to change a limit."
      />
      {licences.isLoading && <Loader size="sm" aria-label="Loading" />}
      {licences.error && !licences.data && (
        <Alert color="red" title="The licences could not be loaded">
          {licences.error.message}
        </Alert>
      )}
      {licences.data && (
        <Card withBorder padding="lg">
          <LicenceUsageBars data={licences.data.data} />
        </Card>
      )}
    </>
  );
}
