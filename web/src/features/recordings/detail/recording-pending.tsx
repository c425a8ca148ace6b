import { Loader } from '@mantine/core';

/**
 * A recording's page while its route's loader fetches the recording. Only a loader: a route's pending view is not
 * split from the first chunk, and a heading here would pull the page header into it (measured: about 2.7 kB more).
 */
export function RecordingPending() {
  return <Loader aria-label="Loading the recording" />;
}
