import { Alert } from '@mantine/core';
import { PageHeader } from '../../components/page/page-header.tsx';

/** The device user could not be fetched (not found, refused): the API's own message under the page's title. */
export function DeviceUserError({ reference, error }: { reference: string; error: unknown }) {
  const message = error instanceof Error ? error.message : '';
  return (
    <>
      <PageHeader title={`Device user ${reference}`} />
      <Alert variant="default" title="This device user could not be loaded">
        {message || 'No such device user.'}
      </Alert>
    </>
  );
}
