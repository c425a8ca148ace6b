import { Alert, Loader } from '@mantine/core';
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import type { PayloadComment } from '#shared/contract/entities/comments.ts';
import type { Payload } from '#shared/contract/entities/payloads.ts';
import { useCan } from '../../../lib/use-can.ts';
import { useDataLink } from '../api/get-payload-data.ts';
import { usePayloadComments } from '../api/list-payload-comments.ts';
import { CommentsPanel } from './comments/comments-panel.tsx';
import type { CommentHistorySlot } from './comments/comment-card.tsx';
import { DetailSection } from './detail-section.tsx';
import { MessageThread } from './message-thread.tsx';
import { nothingToPlay, NothingToPlay } from './nothing-to-play.tsx';
import { PhotoViewer } from './photo-viewer.tsx';
import type { PlayerControls } from './player-controls.ts';
import { lengthOf } from './recording-facts.tsx';
import type { Span } from './spans.ts';
import { VideoPlayer } from './video-player.tsx';

// wavesurfer.js and its regions plugin arrive only with a call or an interview.
const loadAudioPlayer = () => import('./audio-player.tsx');
const AudioPlayer = lazy(loadAudioPlayer);

const MESSAGE_TYPES = new Set(['SMS', 'MMS', 'RCS']);
const NO_COMMENTS: PayloadComment[] = [];
/** A link younger than this that fails did not expire. */
const LINK_FRESH_MS = 60_000;

/**
 * The recording itself (player, viewer or conversation) and its comments, sharing one selection: a span selected on
 * the timeline goes to the comment form, a comment's span pressed in the list plays on the player.
 *
 * What goes on the recording's audit trail (docs/decisions.md, "Play means played"): a call, interview or video asks
 * for its play link only when playback starts, and a press while that link lives reuses it (one press, one "Played");
 * a photo asks for its view link once per opening ("Viewed"), as a conversation does for its messages. Opening the
 * page, drawing the waveform, re-rendering or refetching asks for none.
 */
export function RecordingMedia({ payload, commentHistory }: { payload: Payload; commentHistory?: CommentHistorySlot | undefined }) {
  const reference = payload.payload_reference;
  const canPlay = useCan('payloads:Play');
  const canList = useCan('comments:List');
  const canComment = useCan('comments:Create');
  const blocked = nothingToPlay(payload);
  const isMessage = MESSAGE_TYPES.has(payload.payload_type);
  const isPhoto = payload.payload_type === 'Photo';
  const timeline = payload.payload_type === 'Call' || payload.payload_type === 'Interview' || payload.payload_type === 'Video';
  const link = useDataLink(reference, isPhoto ? 'view' : 'play');
  const viewOnOpen = isPhoto && canPlay.allowed && blocked === undefined;
  const requestLink = link.request;
  // A photo is seen as soon as its page opens: one view link (one "Viewed") per opening; a later render reuses it.
  useEffect(() => {
    if (viewOnOpen) void requestLink();
  }, [viewOnOpen, requestLink]);
  // The player's code loads with the page (it draws the waveform before any audio is asked for).
  if (canPlay.allowed && blocked === undefined && (payload.payload_type === 'Call' || payload.payload_type === 'Interview')) void loadAudioPlayer();
  const comments = usePayloadComments(reference, { enabled: canList.allowed });
  const commentList = comments.data !== undefined && 'data' in comments.data ? comments.data.data : NO_COMMENTS;
  const controls = useRef<PlayerControls | null>(null);
  const [selectedSpan, setSelectedSpan] = useState<Span | undefined>(undefined);
  const [selectedCommentId, setSelectedCommentId] = useState<string | undefined>(undefined);
  const length = lengthOf(payload.meta);
  const pauseTimes = Array.isArray(payload.meta?.interview_pause_times) ? (payload.meta.interview_pause_times as number[]) : [];
  const [unplayable, setUnplayable] = useState(false);
  // A link that fails once it is old has expired: ask for a new one (playback resumes where it was; a new link given
  // is a new record). A fresh link that fails is the media itself (a format this browser cannot play): say so rather
  // than ask again and again.
  const renew = () => {
    if (link.givenAt !== undefined && Date.now() - link.givenAt > LINK_FRESH_MS) void link.request({ renew: true });
    else setUnplayable(true);
  };

  const player = () => {
    if (isMessage) return <MessageThread payload={payload} />;
    if (blocked !== undefined) return <NothingToPlay reason={blocked} />;
    if (!canPlay.allowed) {
      return (
        <Alert variant="light" color="gray" title={isPhoto ? 'Viewing photos is not open to you' : 'Playing is not open to you'}>
          {canPlay.reason}
        </Alert>
      );
    }
    const refused = link.status === 'failed' && (
      <Alert variant="light" color="red" title="The recording could not be opened">
        {link.error?.message ?? 'No link was given.'}
      </Alert>
    );
    const src = link.url;
    const cannotPlay = unplayable && (
      <Alert variant="light" color="yellow" title="This browser cannot play the recording">
        Download it to play it with another player.
      </Alert>
    );
    const common = {
      comments: commentList,
      selectedCommentId,
      selectable: canComment.allowed,
      onSpanSelected: setSelectedSpan,
      onCommentSelected: setSelectedCommentId,
      onLinkFailed: renew,
      controls,
      src,
      onStart: () => link.request(),
    };
    switch (payload.payload_type) {
      case 'Photo':
        if (refused) return refused;
        if (src === undefined) return <Loader size="sm" aria-label="Loading the photo" />;
        return <PhotoViewer src={src} description={`Photo ${reference}${typeof payload.meta?.payload_notes === 'string' ? `: ${payload.meta.payload_notes}` : ''}`} />;
      case 'Video':
        return (
          <>
            {refused}
            {cannotPlay}
            <VideoPlayer length={length} {...common} />
          </>
        );
      default:
        return (
          <Suspense fallback={<Loader size="sm" aria-label="Loading the player" />}>
            {refused}
            {cannotPlay}
            <AudioPlayer payloadReference={reference} length={length} pauseTimes={pauseTimes} {...common} />
          </Suspense>
        );
    }
  };

  return (
    <>
      <DetailSection title={isMessage ? 'Conversation' : 'Recording'}>{player()}</DetailSection>
      <DetailSection title="Comments">
        {canList.allowed ? (
          <CommentsPanel
            payloadReference={reference}
            comments={commentList}
            loading={comments.isLoading}
            spanned={timeline && blocked === undefined}
            {...(commentHistory === undefined ? {} : { history: commentHistory })}
            {...(payload.payload_state === 'Destroyed' ? { closedReason: 'Its content was destroyed under the retention policy, so its comments can no longer change.' } : {})}
            {...(selectedCommentId === undefined ? {} : { selectedId: selectedCommentId })}
            {...(selectedSpan === undefined ? {} : { selectedSpan })}
            {...(timeline && canPlay.allowed && blocked === undefined
              ? { playhead: () => controls.current?.playhead() ?? 0, onPlaySpan: (span: Span) => controls.current?.playSpan(span) }
              : {})}
          />
        ) : (
          <Alert variant="light" color="gray" title="Comments are not open to you">
            {canList.reason}
          </Alert>
        )}
      </DetailSection>
    </>
  );
}
