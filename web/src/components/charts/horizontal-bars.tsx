import { useElementSize } from '@mantine/hooks';
import { formatNumber } from '../../lib/format.ts';
import { bands, linearScale, niceScale } from './scale.ts';

/** Drawn at its container's width in pixels (so text stays 12 px); this until measured (and on the server). */
const DEFAULT_WIDTH = 600;
const VALUE_ROOM = 56;
const ROW = 30;
const AXIS = 26;
export const BARS_TOP = 6;

/**
 * The geometry both horizontal bar charts share (one row per label, a value axis from 0 at the bottom): the
 * measured width, the plot's size, the value scale and each row's band.
 */
export function useHorizontalBars(rowCount: number, maxValue: number, labelWidth: number) {
  const { ref, width: measured } = useElementSize();
  const width = measured > 0 ? Math.max(280, Math.round(measured)) : DEFAULT_WIDTH;
  const scale = niceScale(Math.max(0, maxValue));
  const plotWidth = width - labelWidth - VALUE_ROOM;
  const plotHeight = Math.max(1, rowCount) * ROW;
  return {
    ref,
    width,
    height: BARS_TOP + plotHeight + AXIS,
    plotWidth,
    plotHeight,
    ticks: scale.ticks,
    x: linearScale(scale.max, plotWidth),
    rows: bands(rowCount, plotHeight, 0.3),
  };
}

/** The value axis's grid lines and numbers under the rows, and the empty text when there are no rows. */
export function ValueGrid({
  ticks,
  x,
  plotWidth,
  plotHeight,
  emptyText,
}: {
  ticks: readonly number[];
  x: (value: number) => number;
  plotWidth: number;
  plotHeight: number;
  /** Shown in the plot when there is nothing to draw. */
  emptyText: string | undefined;
}) {
  return (
    <>
      {ticks.map((tick) => (
        <g key={tick} transform={`translate(${x(tick)} 0)`}>
          <line y1={0} y2={plotHeight} stroke="var(--mantine-color-default-border)" />
          <text y={plotHeight + 16} textAnchor="middle" fill="var(--mantine-color-dimmed)">
            {formatNumber(tick)}
          </text>
        </g>
      ))}
      {emptyText !== undefined && (
        <text x={plotWidth / 2} y={ROW / 2 + 4} textAnchor="middle" fill="var(--mantine-color-dimmed)">
          {emptyText}
        </text>
      )}
    </>
  );
}

/** A row's label, cut to `length` characters with an ellipsis so it stays left of the bars. */
export function truncateLabel(text: string, length: number): string {
  return text.length > length ? `${text.slice(0, length - 1)}…` : text;
}
