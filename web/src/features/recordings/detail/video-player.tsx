import { Button, Group, Stack, Text, UnstyledButton } from '@mantine/core';
import { useEffect, useRef, useState, type RefObject } from 'react';
import type { PayloadComment } from '#shared/contract/entities/comments.ts';
import type { PlayerControls } from './player-controls.ts';
import { describeSpan, formatClock, spanOf, type Span } from './spans.ts';

interface VideoPlayerProps {
  /** The play link once playback started; until then undefined, and no video byte is asked for. */
  src: string | undefined;
  /** Asks for the play link (a play record on the audit trail): called when playback starts, never before. */
  onStart: () => Promise<string | undefined>;
  length: number | undefined;
  comments: readonly PayloadComment[];
  selectedCommentId: string | undefined;
  selectable: boolean;
  onSpanSelected: (span: Span) => void;
  onCommentSelected: (commentId: string) => void;
  onLinkFailed: () => void;
  controls: RefObject<PlayerControls | null>;
}

/** Plays `span` on the element, pausing at its end (`stopAt`, read by the time updates). */
function playSpan(element: HTMLVideoElement, span: Span, stopAt: RefObject<number | undefined>) {
  element.currentTime = span.start_time;
  stopAt.current = span.start_time + span.duration;
  void element.play().catch(() => undefined);
}

/**
 * The video player: the browser's own controls on the play link (range requests), and under it a timeline with the
 * comments' spans (press one to play it) and "Mark start" / "Mark end" to select a span to comment on.
 * Playing is what asks for the play link: until the first Play (or a comment's span pressed, or the element's own
 * play), a Play button stands for the controls and nothing of the video is fetched; a video left at 0:00 is not played.
 */
export function VideoPlayer({ src, onStart, length, comments, selectedCommentId, selectable, onSpanSelected, onCommentSelected, onLinkFailed, controls }: VideoPlayerProps) {
  const video = useRef<HTMLVideoElement>(null);
  const stopAt = useRef<number | undefined>(undefined);
  const resumeAt = useRef<number | undefined>(undefined);
  const pending = useRef<Span | 'start' | undefined>(undefined);
  const latest = useRef({ src, onStart });
  latest.current = { src, onStart };
  const [starting, setStarting] = useState(false);
  const [mediaLength, setMediaLength] = useState<number | undefined>(undefined);
  const [markedStart, setMarkedStart] = useState<number | undefined>(undefined);
  const total = mediaLength ?? length;

  /** Without the link, ask for it first (the one play record of this act); play once it is on the element. */
  const start = (next: Span | 'start') => {
    pending.current = next;
    setStarting(true);
    void latest.current.onStart().finally(() => setStarting(false));
  };
  const startRef = useRef(start);
  startRef.current = start;

  useEffect(() => {
    controls.current = {
      playSpan: (span) => {
        const element = video.current;
        if (element === null) return;
        if (latest.current.src === undefined) startRef.current(span);
        else playSpan(element, span, stopAt);
      },
      playhead: () => video.current?.currentTime ?? 0,
    };
    return () => {
      controls.current = null;
    };
  }, [controls]);

  // The link arrived: do what the press asked for.
  useEffect(() => {
    const element = video.current;
    const next = pending.current;
    if (src === undefined || element === null || next === undefined) return;
    pending.current = undefined;
    if (next === 'start') void element.play().catch(() => undefined);
    else playSpan(element, next, stopAt);
  }, [src]);

  const spanned = comments.filter((comment) => comment.comment_duration !== undefined);

  return (
    <Stack gap="xs">
      {src === undefined && (
        <Group gap="xs">
          <Button onClick={() => start('start')} loading={starting} w={96}>
            Play
          </Button>
          <Text size="sm" c="dimmed">
            Nothing of the video is fetched until it is played.
          </Text>
        </Group>
      )}
      <video
        ref={video}
        src={src}
        controls={src !== undefined}
        preload="none"
        aria-label="Video recording"
        // Played by other means before any link: ask for it then, as a Play press would.
        onPlay={(event) => {
          if (latest.current.src !== undefined) return;
          event.currentTarget.pause();
          start('start');
        }}
        style={{ width: '100%', maxWidth: 720, maxHeight: 480, background: '#000', borderRadius: 4 }}
        onLoadedMetadata={(event) => {
          const element = event.currentTarget;
          if (Number.isFinite(element.duration)) setMediaLength(element.duration);
          if (resumeAt.current !== undefined) element.currentTime = resumeAt.current;
          resumeAt.current = undefined;
        }}
        onTimeUpdate={(event) => {
          if (stopAt.current !== undefined && event.currentTarget.currentTime >= stopAt.current) {
            stopAt.current = undefined;
            event.currentTarget.pause();
          }
        }}
        onError={() => {
          resumeAt.current = video.current?.currentTime;
          onLinkFailed();
        }}
      />
      {total !== undefined && total > 0 && (
        <div
          role="group"
          aria-label="Commented spans on the video's timeline"
          style={{ position: 'relative', height: 28, background: 'var(--mantine-color-default-hover)', borderRadius: 4 }}
        >
          {spanned.map((comment) => {
            const span = comment.comment_duration as Span;
            const number = comments.indexOf(comment) + 1;
            const selected = comment.comment_id === selectedCommentId;
            return (
              <UnstyledButton
                key={comment.comment_id}
                aria-label={`Play ${describeSpan(span)} (comment ${number})`}
                onClick={() => {
                  onCommentSelected(comment.comment_id);
                  controls.current?.playSpan(span);
                }}
                style={{
                  position: 'absolute',
                  top: 2,
                  bottom: 2,
                  left: `${(span.start_time / total) * 100}%`,
                  width: `max(20px, ${(span.duration / total) * 100}%)`,
                  background: selected ? 'rgba(250, 176, 5, 0.8)' : 'rgba(250, 176, 5, 0.45)',
                  color: '#000',
                  fontSize: 12,
                  fontWeight: 600,
                  textAlign: 'center',
                  borderRadius: 3,
                }}
              >
                {number}
              </UnstyledButton>
            );
          })}
        </div>
      )}
      {selectable && (
        <Group gap="xs">
          <Button variant="default" size="compact-sm" onClick={() => setMarkedStart(video.current?.currentTime ?? 0)}>
            Mark start
          </Button>
          <Button
            variant="default"
            size="compact-sm"
            disabled={markedStart === undefined}
            onClick={() => {
              if (markedStart === undefined) return;
              onSpanSelected(spanOf(markedStart, video.current?.currentTime ?? markedStart, total));
              setMarkedStart(undefined);
            }}
          >
            Mark end
          </Button>
          <Text size="sm" c="dimmed">
            {markedStart === undefined ? 'Mark a start and an end while playing to select a span to comment on.' : `Start marked at ${formatClock(markedStart)}.`}
          </Text>
        </Group>
      )}
    </Stack>
  );
}
