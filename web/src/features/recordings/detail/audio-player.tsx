import { ActionIcon, Button, Group, Loader, Stack, Text, useComputedColorScheme } from '@mantine/core';
import { useEffect, useRef, useState, type RefObject } from 'react';
import WaveSurfer from 'wavesurfer.js';
import RegionsPlugin, { type Region, type RegionParams } from 'wavesurfer.js/dist/plugins/regions.esm.js';
import type { PayloadComment } from '#shared/contract/entities/comments.ts';
import { formatClock, peaksToUnit, spanOf, type Span } from './spans.ts';
import { useWaveformPeaks } from './use-waveform-peaks.ts';
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
  /** The play link (range requests by the media element: nothing is downloaded whole). */
  src: string;
  peaksUrl: string | undefined;
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
 * Its own lazy chunk: wavesurfer.js arrives only with a recording.
 */
export default function AudioPlayer(props: AudioPlayerProps) {
  return props.peaksUrl === undefined ? <PlainAudio {...props} note="No waveform for this recording’s format: it plays without one." /> : <WaveformPlayer {...props} peaksUrl={props.peaksUrl} />;
}

/**
 * The browser's own audio controls, for a recording without peaks (or whose peaks failed): never a waveform decoded
 * from the audio, which would download all of it first.
 */
function PlainAudio({ src, controls, onLinkFailed, note }: AudioPlayerProps & { note: string }) {
  const audio = useRef<HTMLAudioElement>(null);
  useEffect(() => {
    controls.current = {
      playSpan: (span) => {
        const element = audio.current;
        if (element === null) return;
        element.currentTime = span.start_time;
        void element.play();
      },
      playhead: () => audio.current?.currentTime ?? 0,
    };
    return () => {
      controls.current = null;
    };
  }, [controls]);
  return (
    <Stack gap="xs">
      <Text size="sm" c="dimmed">
        {note}
      </Text>
      <audio ref={audio} src={src} controls preload="metadata" aria-label="Recording" onError={onLinkFailed} style={{ width: '100%' }} />
    </Stack>
  );
}

function WaveformPlayer(props: AudioPlayerProps & { peaksUrl: string }) {
  const { payloadReference, src, peaksUrl, length, comments, pauseTimes, selectedCommentId, selectable, controls } = props;
  const scheme = useComputedColorScheme('light');
  const peaks = useWaveformPeaks(payloadReference, peaksUrl);
  const container = useRef<HTMLDivElement>(null);
  const audio = useRef<HTMLAudioElement>(null);
  const surfer = useRef<WaveSurfer | null>(null);
  const regions = useRef<ReturnType<typeof RegionsPlugin.create> | null>(null);
  const resumeAt = useRef<number | undefined>(undefined);
  const [playing, setPlaying] = useState(false);
  const [time, setTime] = useState(0);
  const [drawn, setDrawn] = useState(false);
  // The latest callbacks, read by listeners registered once.
  const latest = useRef(props);
  latest.current = props;

  const duration = peaks.data?.duration ?? length;
  const ready = peaks.data !== undefined;

  // One WaveSurfer per recording and colour scheme, on the page's own <audio> element.
  useEffect(() => {
    if (!ready || container.current === null || audio.current === null) return;
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
      ...(peaks.data === undefined ? {} : { peaks: [peaksToUnit(peaks.data.peaks)], duration: peaks.data.duration }),
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
      plugin.on('region-clicked', (region: Region, event: MouseEvent) => {
        if (!region.id.startsWith('comment-')) return;
        event.stopPropagation();
        latest.current.onCommentSelected(region.id.slice('comment-'.length));
        region.play(true);
      }),
    ];
    controls.current = {
      playSpan: (span) => void instance.play(span.start_time, span.start_time + span.duration),
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
  }, [ready, scheme, peaks.data, controls]);

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

  if (peaks.isError) return <PlainAudio {...props} note={`${peaks.error.message} The recording plays without its waveform.`} />;
  return (
    <Stack gap="xs">
      {!ready && <Loader size="sm" aria-label="Loading the waveform" />}
      <div
        ref={container}
        role="img"
        aria-label={description}
        data-waveform={drawn ? 'drawn' : 'pending'}
        style={{ minHeight: 96, cursor: selectable ? 'crosshair' : 'pointer' }}
      />
      {/* No preload: the peaks give the length, so no audio byte is fetched until Play (then by ranges). */}
      <audio ref={audio} src={src} preload="none" aria-label="Recording" onError={failed} onLoadedMetadata={restore} />
      <Group gap="xs">
        <Button onClick={() => void surfer.current?.playPause()} disabled={!drawn} w={96}>
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
