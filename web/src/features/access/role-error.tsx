import { Alert } from '@mantine/core';
import { PageHeader } from '../../components/page/page-header.tsx';

/** The role could not be fetched (not found, refused): the API's own message under the page's title. */
export function RoleError({ reference, error }: { reference: string; error: unknown }) {
  const message = error instanceof Error ? error.message : '';
  return (
    <>
      <PageHeader title={`Role ${reference}`} />
      <Alert variant="default" title="This role could not be loaded">
        {message || 'No such role.'}
      </Alert>
    </>
  );
}
