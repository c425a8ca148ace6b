import { Button, Group, Stack, Text, UnstyledButton } from '@mantine/core';
import { useEffect, useRef, useState, type RefObject } from 'react';
import type { PayloadComment } from '#shared/contract/entities/comments.ts';
import type { PlayerControls } from './player-controls.ts';
import { describeSpan, formatClock, spanOf, type Span } from './spans.ts';

interface VideoPlayerProps {
  src: string;
  length: number | undefined;
  comments: readonly PayloadComment[];
  selectedCommentId: string | undefined;
  selectable: boolean;
  onSpanSelected: (span: Span) => void;
  onCommentSelected: (commentId: string) => void;
  onLinkFailed: () => void;
  controls: RefObject<PlayerControls | null>;
}

/**
 * The video player: the browser's own controls on the play link (range requests), and under it a timeline with the
 * comments' spans (press one to play it) and "Mark start" / "Mark end" to select a span to comment on.
 */
export function VideoPlayer({ src, length, comments, selectedCommentId, selectable, onSpanSelected, onCommentSelected, onLinkFailed, controls }: VideoPlayerProps) {
  const video = useRef<HTMLVideoElement>(null);
  const stopAt = useRef<number | undefined>(undefined);
  const resumeAt = useRef<number | undefined>(undefined);
  const [mediaLength, setMediaLength] = useState<number | undefined>(undefined);
  const [markedStart, setMarkedStart] = useState<number | undefined>(undefined);
  const total = mediaLength ?? length;

  useEffect(() => {
    controls.current = {
      playSpan: (span) => {
        const element = video.current;
        if (element === null) return;
        element.currentTime = span.start_time;
        stopAt.current = span.start_time + span.duration;
        void element.play();
      },
      playhead: () => video.current?.currentTime ?? 0,
    };
    return () => {
      controls.current = null;
    };
  }, [controls]);

  const spanned = comments.filter((comment) => comment.comment_duration !== undefined);

  return (
    <Stack gap="xs">
      <video
        ref={video}
        src={src}
        controls
        preload="metadata"
        aria-label="Video recording"
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
