import { Alert } from '@mantine/core';
import { PageHeader } from '../../../components/page/page-header.tsx';
import type { RecordingKind } from '../shared/kinds.ts';

/** The singular a page title uses for each screen. */
const PAGE_NOUNS: Record<Exclude<RecordingKind, 'all' | 'diagnostics'>, string> = {
  calls: 'Call',
  interviews: 'Interview',
  messages: 'Message',
  photos: 'Photo',
  videos: 'Video',
};

/** The screens that show one recording. */
export type DetailKind = keyof typeof PAGE_NOUNS;

/** The recording could not be fetched (not found, another group's, refused): the API's own message under the screen's title. */
export function RecordingError({ kind, error }: { kind: DetailKind; error: unknown }) {
  const message = error instanceof Error ? error.message : '';
  return (
    <>
      <PageHeader title={PAGE_NOUNS[kind]} />
      <Alert color="red" variant="light" title="This recording could not be shown">
        {message || 'It was not found.'}
      </Alert>
    </>
  );
}
