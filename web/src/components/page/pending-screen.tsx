import { Alert } from '@mantine/core';
import { PageHeader } from './page-header.tsx';

/**
 * A route of spec point 2 whose screen is not built yet. The route, its guard and its place in the navigation exist,
 * so links and bookmarks already work.
 */
export function PendingScreen({ title, about }: { title: string; about: string }) {
  return (
    <>
      <PageHeader title={title} description={about} />
      <Alert color="cerulean" variant="light" title="Not in this version yet">
        This screen is coming in a later version of the portal.
      </Alert>
    </>
  );
}
