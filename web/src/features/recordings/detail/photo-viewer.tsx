import { ActionIcon, Group, Slider, Stack, Text } from '@mantine/core';
import { useState } from 'react';

const MIN_ZOOM = 0.25;
const MAX_ZOOM = 8;

/** Zoom steps: doubling and halving, kept inside the bounds. */
export function nextZoom(zoom: number, direction: 1 | -1): number {
  return Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, direction === 1 ? zoom * 2 : zoom / 2));
}

/**
 * A photo at its size or fitted to the page, zoomed in and out with the buttons, the slider or the keyboard (+, −, 0),
 * and panned by scrolling when larger than its frame.
 */
export function PhotoViewer({ src, description }: { src: string; description: string }) {
  const [zoom, setZoom] = useState<number | 'fit'>('fit');
  const [natural, setNatural] = useState<{ width: number; height: number } | undefined>(undefined);
  const scale = zoom === 'fit' ? 1 : zoom;

  return (
    <Stack gap="xs">
      <Group gap="xs">
        <ActionIcon variant="default" size="lg" aria-label="Zoom out of the photo" onClick={() => setZoom(nextZoom(scale, -1))}>
          −
        </ActionIcon>
        <Slider
          w={200}
          min={MIN_ZOOM}
          max={MAX_ZOOM}
          step={0.25}
          value={scale}
          onChange={setZoom}
          label={(value) => `${Math.round(value * 100)}%`}
          thumbLabel="Zoom"
        />
        <ActionIcon variant="default" size="lg" aria-label="Zoom in on the photo" onClick={() => setZoom(nextZoom(scale, 1))}>
          +
        </ActionIcon>
        <ActionIcon variant="default" size="lg" aria-label="Fit the photo to the frame" onClick={() => setZoom('fit')} w="auto" px="xs">
          Fit
        </ActionIcon>
        <Text size="sm" c="dimmed" aria-live="polite">
          {zoom === 'fit' ? 'Fitted to the frame' : `${Math.round(zoom * 100)}%`}
          {natural !== undefined && ` · ${natural.width} × ${natural.height} pixels`}
        </Text>
      </Group>
      <div
        tabIndex={0}
        role="group"
        aria-label="Photo (use + and − to zoom, 0 to fit, arrow keys to pan)"
        onKeyDown={(event) => {
          if (event.key === '+' || event.key === '=') setZoom(nextZoom(scale, 1));
          else if (event.key === '-') setZoom(nextZoom(scale, -1));
          else if (event.key === '0') setZoom('fit');
        }}
        style={{ overflow: 'auto', maxHeight: 560, borderRadius: 4, background: 'var(--mantine-color-default-hover)', textAlign: 'center' }}
      >
        <img
          src={src}
          alt={description}
          onLoad={(event) => setNatural({ width: event.currentTarget.naturalWidth, height: event.currentTarget.naturalHeight })}
          style={
            zoom === 'fit' || natural === undefined
              ? { maxWidth: '100%', maxHeight: 540, display: 'inline-block' }
              : { width: natural.width * scale, height: natural.height * scale, maxWidth: 'none', display: 'inline-block' }
          }
        />
      </div>
    </Stack>
  );
}
