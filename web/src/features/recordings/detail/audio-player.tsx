import { ActionIcon, Button, Group, Loader, Stack, Text, useComputedColorScheme } from '@mantine/core';
import { useEffect, useRef, useState, type RefObject } from 'react';
import WaveSurfer from 'wavesurfer.js';
import RegionsPlugin, { type Region, type RegionParams } from 'wavesurfer.js/dist/plugins/regions.esm.js';
import type { PayloadComment } from '#shared/contract/entities/comments.ts';
import { formatClock, peaksToUnit, spanOf, type Span } from './spans.ts';
import type { WaveformPeaks } from '#shared/contract/entities/waveform-peaks.ts';
import { useWaveformPeaks } from '../api/get-payload-waveform.ts';
import type { PlayerControls } from './player-controls.ts';

/** Colours on the canvas (not themable by CSS): readable on the light and the dark page. */
const PALETTE = {
  light: { wave: '#868e96', progress: '#1971c2', cursor: '#1971c2' },
  dark: { wave: '#909296', progress: '#4dabf7', cursor: '#4dabf7' },
};
const COMMENT_FILL = 'rgba(250, 176, 5, 0.25)';
const SELECTED_FILL = 'rgba(250, 176, 5, 0.5)';
const DRAFT_FILL = 'rgba(34, 139, 230, 0.3)';
const PAUSE_COLOUR = '#e03131';

export interface AudioPlayerProps {
  payloadReference: string;
  /**
   * The play link once playback started (range requests by the media element: nothing is downloaded whole); until
   * then undefined, and no audio byte is asked for.
   */
  src: string | undefined;
  /** Asks for the play link (a play record on the audit trail): called when playback starts, never before. */
  onStart: () => Promise<string | undefined>;
  /** The recording's length from its meta, used until the media says. */
  length: number | undefined;
  comments: readonly PayloadComment[];
  /** Interview pause times (seconds from the start), marked on the waveform. */
  pauseTimes: readonly number[];
  selectedCommentId: string | undefined;
  /** Dragging on the waveform selects a span to comment on (only when the role may comment). */
  selectable: boolean;
  onSpanSelected: (span: Span) => void;
  onCommentSelected: (commentId: string) => void;
  /** The link stopped working (expired): the caller fetches a new one; playback resumes where it was. */
  onLinkFailed: () => void;
  controls: RefObject<PlayerControls | null>;
}

/** A small tag inside a region: explicit colours so it reads on either page colour. */
function tag(text: string, colour: string): HTMLElement {
  const element = document.createElement('span');
  element.textContent = text;
  Object.assign(element.style, { background: '#ffffff', color: colour, font: '600 12px sans-serif', padding: '0 4px', borderRadius: '2px', margin: '2px' });
  return element;
}

/**
 * The call or interview player: the waveform drawn from the precomputed peaks (so an hour-long call shows at once),
 * the audio streamed by the media element's own range requests, comments as spans on the waveform (press one to play
 * it), interview pauses as red marks, and a drag on the waveform to select a span to comment on.
 * Playing is what asks for the play link: the first Play (or a comment's span pressed, or the media element's own
 * play) calls `onStart`; opening the page, drawing the waveform or re-rendering asks for nothing.
 * Its own lazy chunk: wavesurfer.js arrives only with a recording.
 */
export default function AudioPlayer(props: AudioPlayerProps) {
  const peaks = useWaveformPeaks(props.payloadReference, true);
  if (peaks.isPending) return <Loader size="sm" aria-label="Loading the waveform" />;
  if (peaks.isError) return <PlainAudio {...props} note={`${peaks.error.message} The recording plays without its waveform.`} />;
  if (peaks.data === null) return <PlainAudio {...props} note="No waveform for this recording’s format: it plays without one." />;
  return <WaveformPlayer {...props} peaks={peaks.data} />;
}

/** What to do once the play link arrives: play from the start (or where the playhead is), or play a span. */
type PendingPlay = { kind: 'play' } | { kind: 'span'; span: Span };

/**
 * The browser's own audio controls, for a recording without peaks (or whose peaks failed): never a waveform decoded
 * from the audio, which would download all of it first. Until playback starts, a Play button stands for them.
 */
function PlainAudio({ src, onStart, controls, onLinkFailed, note }: AudioPlayerProps & { note: string }) {
  const audio = useRef<HTMLAudioElement>(null);
  const pending = useRef<PendingPlay | undefined>(undefined);
  const latest = useRef({ src, onStart });
  latest.current = { src, onStart };
  const [starting, setStarting] = useState(false);

  const start = (next: PendingPlay) => {
    pending.current = next;
    setStarting(true);
    void latest.current.onStart().finally(() => setStarting(false));
  };
  useEffect(() => {
    controls.current = {
      playSpan: (span) => {
        const element = audio.current;
        if (element === null) return;
        if (latest.current.src === undefined) return start({ kind: 'span', span });
        element.currentTime = span.start_time;
        void element.play();
      },
      playhead: () => audio.current?.currentTime ?? 0,
    };
    return () => {
      controls.current = null;
    };
  }, [controls]);
  // The link arrived: do what the press asked for.
  useEffect(() => {
    const element = audio.current;
    const next = pending.current;
    if (src === undefined || element === null || next === undefined) return;
    pending.current = undefined;
    if (next.kind === 'span') element.currentTime = next.span.start_time;
    void element.play().catch(() => undefined);
  }, [src]);

  return (
    <Stack gap="xs">
      <Text size="sm" c="dimmed">
        {note}
      </Text>
      {src === undefined && (
        <Group gap="xs">
          <Button onClick={() => start({ kind: 'play' })} loading={starting} w={96}>
            Play
          </Button>
        </Group>
      )}
      <audio
        ref={audio}
        src={src}
        controls={src !== undefined}
        preload="none"
        aria-label="Recording"
        onError={onLinkFailed}
        // Played by other means (a headset's button) before any link: ask for it then, as a Play press would.
        onPlay={(event) => {
          if (src !== undefined) return;
          event.currentTarget.pause();
          start({ kind: 'play' });
        }}
        style={{ width: '100%', display: src === undefined ? 'none' : undefined }}
      />
    </Stack>
  );
}

function WaveformPlayer(props: AudioPlayerProps & { peaks: WaveformPeaks }) {
  const { src, peaks, comments, pauseTimes, selectedCommentId, selectable, controls } = props;
  const scheme = useComputedColorScheme('light');
  const container = useRef<HTMLDivElement>(null);
  const audio = useRef<HTMLAudioElement>(null);
  const surfer = useRef<WaveSurfer | null>(null);
  const regions = useRef<ReturnType<typeof RegionsPlugin.create> | null>(null);
  const resumeAt = useRef<number | undefined>(undefined);
  const pending = useRef<PendingPlay | undefined>(undefined);
  const [starting, setStarting] = useState(false);
  const [playing, setPlaying] = useState(false);
  const [time, setTime] = useState(0);
  const [drawn, setDrawn] = useState(false);
  // The latest callbacks, read by listeners registered once.
  const latest = useRef(props);
  latest.current = props;

  const duration = peaks.duration;

  /**
   * Play (or play a span): with the link, at once; without it, ask for it first (the one play record of this act)
   * and play once it is on the media element. A press while it is being asked for changes what will play, not how
   * often it is asked.
   */
  const play = (next: PendingPlay) => {
    const instance = surfer.current;
    if (instance === null) return;
    if (latest.current.src !== undefined) {
      if (next.kind === 'span') void instance.play(next.span.start_time, next.span.start_time + next.span.duration);
      else void instance.playPause();
      return;
    }
    pending.current = next;
    setStarting(true);
    void latest.current.onStart().finally(() => setStarting(false));
  };
  const playRef = useRef(play);
  playRef.current = play;

  // The link arrived: do what the press asked for.
  useEffect(() => {
    const instance = surfer.current;
    const next = pending.current;
    if (src === undefined || instance === null || next === undefined) return;
    pending.current = undefined;
    const started = next.kind === 'span' ? instance.play(next.span.start_time, next.span.start_time + next.span.duration) : instance.play();
    void started.catch(() => undefined);
  }, [src]);

  // One WaveSurfer per recording and colour scheme, on the page's own <audio> element.
  useEffect(() => {
    if (container.current === null || audio.current === null) return;
    const palette = PALETTE[scheme];
    const plugin = RegionsPlugin.create();
    const options = {
      container: container.current,
      media: audio.current,
      height: 96,
      waveColor: palette.wave,
      progressColor: palette.progress,
      cursorColor: palette.cursor,
      barWidth: 2,
      barGap: 1,
      plugins: [plugin],
      peaks: [peaksToUnit(peaks.peaks)],
      duration: peaks.duration,
    };
    const instance = WaveSurfer.create(options);
    surfer.current = instance;
    regions.current = plugin;
    const unsubscribe = [
      instance.on('redrawcomplete', () => setDrawn(true)),
      instance.on('play', () => setPlaying(true)),
      instance.on('pause', () => setPlaying(false)),
      instance.on('timeupdate', (seconds) => setTime(seconds)),
      plugin.on('region-created', (region: Region) => {
        if (!region.id.startsWith('drag-')) return;
        // One selection at a time: the last drag replaces the one before.
        for (const other of plugin.getRegions()) if (other !== region && other.id.startsWith('drag-')) other.remove();
        latest.current.onSpanSelected(spanOf(region.start, region.end, instance.getDuration() || latest.current.length));
      }),
      // The drawn selection moved or resized by its handles afterwards: the span follows what is drawn.
      plugin.on('region-updated', (region: Region) => {
        if (!region.id.startsWith('drag-')) return;
        latest.current.onSpanSelected(spanOf(region.start, region.end, instance.getDuration() || latest.current.length));
      }),
      plugin.on('region-clicked', (region: Region, event: MouseEvent) => {
        if (!region.id.startsWith('comment-')) return;
        event.stopPropagation();
        latest.current.onCommentSelected(region.id.slice('comment-'.length));
        playRef.current({ kind: 'span', span: { start_time: region.start, duration: region.end - region.start } });
      }),
    ];
    controls.current = {
      playSpan: (span) => playRef.current({ kind: 'span', span }),
      playhead: () => instance.getCurrentTime(),
    };
    return () => {
      for (const stop of unsubscribe) stop();
      controls.current = null;
      instance.destroy();
      surfer.current = null;
      regions.current = null;
      setDrawn(false);
    };
  }, [scheme, peaks, controls]);

  // Dragging selects a span only for those who may comment.
  useEffect(() => {
    const plugin = regions.current;
    if (plugin === null || !selectable) return;
    // Each drag's region gets its own `drag-` id: the plugin copies these options (and so reads the getter) per drag.
    let count = 0;
    const options: Omit<RegionParams, 'start' | 'end'> = { color: DRAFT_FILL };
    Object.defineProperty(options, 'id', { enumerable: true, get: () => `drag-${(count += 1)}` });
    return plugin.enableDragSelection(options);
  }, [selectable, drawn]);

  // Comment spans and pause marks follow the comments.
  useEffect(() => {
    const plugin = regions.current;
    if (plugin === null || !drawn) return;
    for (const region of plugin.getRegions()) if (!region.id.startsWith('drag-')) region.remove();
    comments.forEach((comment, index) => {
      const span = comment.comment_duration;
      if (span === undefined) return;
      plugin.addRegion({
        id: `comment-${comment.comment_id}`,
        start: span.start_time,
        end: span.start_time + span.duration,
        color: comment.comment_id === selectedCommentId ? SELECTED_FILL : COMMENT_FILL,
        content: tag(String(index + 1), '#5c3c00'),
        drag: false,
        resize: false,
      });
    });
    for (const [index, pause] of pauseTimes.entries()) {
      plugin.addRegion({ id: `pause-${index}`, start: pause, color: PAUSE_COLOUR, content: tag('Pause', '#a51111'), drag: false, resize: false });
    }
  }, [comments, pauseTimes, selectedCommentId, drawn]);

  const failed = () => {
    resumeAt.current = audio.current?.currentTime;
    latest.current.onLinkFailed();
  };
  const restore = () => {
    if (resumeAt.current !== undefined && audio.current !== null) audio.current.currentTime = resumeAt.current;
    resumeAt.current = undefined;
  };

  const spans = comments.filter((comment) => comment.comment_duration !== undefined).length;
  const description = [
    `Waveform of the recording${duration === undefined ? '' : `, ${formatClock(duration)} long`}`,
    spans > 0 ? `${spans} commented span${spans === 1 ? '' : 's'} marked` : undefined,
    pauseTimes.length > 0 ? `pauses at ${pauseTimes.map(formatClock).join(', ')}` : undefined,
  ]
    .filter(Boolean)
    .join('; ');

  return (
    <Stack gap="xs">
      <div
        ref={container}
        role="img"
        aria-label={description}
        data-waveform={drawn ? 'drawn' : 'pending'}
        style={{ minHeight: 96, cursor: selectable ? 'crosshair' : 'pointer' }}
      />
      {/* No link, so no audio byte, until Play: the peaks give the waveform and the length (then audio by ranges). */}
      <audio
        ref={audio}
        src={src}
        preload="none"
        aria-label="Recording"
        onError={failed}
        onLoadedMetadata={restore}
        // Played by other means (a headset's button) before any link: ask for it then, as a Play press would.
        onPlay={(event) => {
          if (src !== undefined) return;
          event.currentTarget.pause();
          play({ kind: 'play' });
        }}
      />
      <Group gap="xs">
        <Button onClick={() => play({ kind: 'play' })} disabled={!drawn} loading={starting} w={96}>
          {playing ? 'Pause' : 'Play'}
        </Button>
        <ActionIcon variant="default" size="lg" aria-label="Back 5 seconds" onClick={() => surfer.current?.skip(-5)}>
          −5
        </ActionIcon>
        <ActionIcon variant="default" size="lg" aria-label="Forward 5 seconds" onClick={() => surfer.current?.skip(5)}>
          +5
        </ActionIcon>
        <Text size="sm" aria-live="off" data-testid="player-time">
          {formatClock(time)} / {duration === undefined ? '—' : formatClock(duration)}
        </Text>
        {selectable && (
          <Text size="sm" c="dimmed">
            Drag across the waveform to select a span to comment on.
          </Text>
        )}
      </Group>
    </Stack>
  );
}
