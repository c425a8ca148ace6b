import { Alert, Loader, Stack, Text } from '@mantine/core';
import { CatchBoundary } from '@tanstack/react-router';
import { lazy, Suspense } from 'react';
import { PageHeader } from '../../../components/page/page-header.tsx';
import { usePayload } from '../api/get-payload.ts';
import { kindOfType, RECORDING_KINDS } from '../shared/kinds.ts';
import { PAYLOAD_TYPE_LABELS } from '../shared/labels.ts';
import { recordedOn, recordingTitle } from '../shared/recording-title.ts';
import { AuditTrail } from './audit-trail.tsx';
import { DetailSection } from './detail-section.tsx';
import { DownloadButton } from './download-button.tsx';
import { CAPTURE_FIX_LABELS, captureLocationOf } from './location.ts';
import { nothingToPlay } from './nothing-to-play.tsx';
import { partiesOf } from './parties.ts';
import { PartiesTable } from './parties-table.tsx';
import { ReceiptControl } from './receipt-control.tsx';
import { RecordingFacts } from './recording-facts.tsx';
import { RecordingMedia } from './recording-media.tsx';
import { RecordingError, type DetailKind } from './recording-error.tsx';
import { LegalHoldNotice } from '../../../components/data/legal-hold-badge.tsx';
import { RestoreControl } from './restore-control.tsx';
import type { CommentHistorySlot } from './comments/comment-card.tsx';

/** The page's props: which list it is under, the recording, and what the route composes into it. */
interface RecordingDetailProps {
  kind: DetailKind;
  payloadReference: string;
  /** What opens an edited comment's earlier versions (features/history, composed by the route). */
  commentHistory?: CommentHistorySlot | undefined;
}

// Leaflet arrives only with a recording that has a location.
const RecordingMap = lazy(() => import('./recording-map.tsx'));

/**
 * One recording's page: the recording (player, viewer or conversation) with its comments, its facts, parties and
 * where it was captured, its audit trail, and Download, Confirm receipt and Restore as the role allows.
 *
 * Its route's loader has fetched the recording (ensureQueryData with the same options) and shows RecordingPending
 * meanwhile. A refused fetch (404, 403) shows here, under the page's title: the boundary is the page's own rather than
 * the route's errorComponent, which would be a chunk of its own and split the first chunk further (measured).
 */
export function RecordingDetail({ kind, payloadReference, commentHistory }: RecordingDetailProps) {
  return (
    <CatchBoundary getResetKey={() => payloadReference} errorComponent={({ error }) => <RecordingError kind={kind} error={error} />}>
      <RecordingContent kind={kind} payloadReference={payloadReference} commentHistory={commentHistory} />
    </CatchBoundary>
  );
}

function RecordingContent({ kind, payloadReference, commentHistory }: RecordingDetailProps) {
  const { data } = usePayload(payloadReference);
  // Named in words (who, with whom, when, how long), never by its reference.
  const title = recordingTitle(data);

  const location = captureLocationOf(data.meta, payloadReference);
  const parties = partiesOf(data.meta);
  const shownUnder = kindOfType(data.payload_type);
  const hasContent = nothingToPlay(data) === undefined;

  return (
    <>
      <PageHeader
        title={title}
        description={recordedOn(data)}
        actions={
          <>
            {hasContent && <DownloadButton payloadReference={payloadReference} />}
            <ReceiptControl payload={data} />
          </>
        }
      />
      <Stack gap="md">
        {shownUnder !== kind && (
          <Alert variant="light" color="yellow" title={`This is a ${PAYLOAD_TYPE_LABELS[data.payload_type].toLowerCase()}`}>
            It belongs under {RECORDING_KINDS[shownUnder].title}; it is shown here as it is.
          </Alert>
        )}
        <LegalHoldNotice heldBy={data.held_by} what="recording" />
        <RestoreControl payload={data} />
        <RecordingMedia payload={data} commentHistory={commentHistory} />
        <DetailSection title="Details">
          <RecordingFacts payload={data} />
        </DetailSection>
        <DetailSection title="Parties">
          <PartiesTable parties={parties} />
        </DetailSection>
        <DetailSection title="Where it was captured">
          {location === undefined ? (
            <Text c="dimmed">The phone reported no location for this recording.</Text>
          ) : (
            <Stack gap="xs">
              <Text size="sm">
                {CAPTURE_FIX_LABELS[location.fix]}: {location.point.latitude.toFixed(5)}, {location.point.longitude.toFixed(5)}
                {location.point.accuracy === undefined ? '' : ` (within ${Math.round(location.point.accuracy)} m)`}
              </Text>
              <Suspense fallback={<Loader size="sm" aria-label="Loading the map" />}>
                <RecordingMap point={location.point} />
              </Suspense>
            </Stack>
          )}
        </DetailSection>
        <DetailSection title="Audit trail">
          <AuditTrail payloadReference={payloadReference} />
        </DetailSection>
      </Stack>
    </>
  );
}
