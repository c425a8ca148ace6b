import { Loader } from '@mantine/core';

/**
 * A transfer's page while its route's loader fetches the transfer. Only a loader, as a recording's page has: a route's
 * pending view is not split from the first chunk, and a heading here would pull the page header into it.
 */
export function TransferPending() {
  return <Loader aria-label="Loading the transfer" />;
}
