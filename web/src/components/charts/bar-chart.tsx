import type { TitleOrder } from '@mantine/core';
import { useElementSize } from '@mantine/hooks';
import { useId } from 'react';
import { formatNumber } from '../../lib/format.ts';
import { ChartFrame, summarise } from './chart-frame.tsx';
import { bands, linearScale, niceScale } from './scale.ts';

export interface BarDatum {
  label: string;
  value: number;
}

/** Drawn at its container's width in pixels (so text stays 12 px); this until measured (and on the server). */
const DEFAULT_WIDTH = 600;
const LABEL_WIDTH = 130;
const VALUE_ROOM = 56;
const ROW = 30;
const AXIS = 26;
const TOP = 6;

/**
 * A horizontal bar chart (one bar per label) in plain SVG: labels read left to right, however long a version string
 * is. The picture is an image named by its title with a text summary of every value; the numbers also show at the
 * end of each bar and in the toggleable table.
 */
export function BarChart({
  title,
  data,
  labelHeader = 'Label',
  valueHeader = 'Count',
  titleOrder,
  emptyText = 'No data to show.',
}: {
  title: string;
  data: readonly BarDatum[];
  labelHeader?: string;
  valueHeader?: string;
  titleOrder?: TitleOrder;
  emptyText?: string;
}) {
  const { ref, width: measured } = useElementSize();
  const width = measured > 0 ? Math.max(280, Math.round(measured)) : DEFAULT_WIDTH;
  const titleId = useId();
  const descId = useId();
  const scale = niceScale(Math.max(0, ...data.map((datum) => datum.value)));
  const plotWidth = width - LABEL_WIDTH - VALUE_ROOM;
  const x = linearScale(scale.max, plotWidth);
  const plotHeight = Math.max(1, data.length) * ROW;
  const rows = bands(data.length, plotHeight, 0.3);
  const height = TOP + plotHeight + AXIS;

  return (
    <ChartFrame
      title={title}
      titleOrder={titleOrder}
      table={{ headers: [labelHeader, valueHeader], rows: data.map((datum) => ({ label: datum.label, values: [datum.value] })) }}
    >
      <div ref={ref} style={{ width: '100%' }}>
      <svg
        viewBox={`0 0 ${width} ${height}`}
        width="100%"
        role="img"
        aria-labelledby={`${titleId} ${descId}`}
        style={{ display: 'block', fontSize: 12 }}
      >
        <title id={titleId}>{title}</title>
        <desc id={descId}>{summarise(title, data.map((datum) => [datum.label, datum.value]))}</desc>
        <g transform={`translate(${LABEL_WIDTH} ${TOP})`}>
          {scale.ticks.map((tick) => (
            <g key={tick} transform={`translate(${x(tick)} 0)`}>
              <line y1={0} y2={plotHeight} stroke="var(--mantine-color-default-border)" />
              <text y={plotHeight + 16} textAnchor="middle" fill="var(--mantine-color-dimmed)">
                {formatNumber(tick)}
              </text>
            </g>
          ))}
          {data.length === 0 && (
            <text x={plotWidth / 2} y={ROW / 2 + 4} textAnchor="middle" fill="var(--mantine-color-dimmed)">
              {emptyText}
            </text>
          )}
          {data.map((datum, index) => {
            const band = rows[index];
            if (band === undefined) return null;
            return (
              <g key={datum.label}>
                <text x={-8} y={band.centre + 4} textAnchor="end" fill="var(--mantine-color-text)">
                  {truncate(datum.label, 18)}
                </text>
                <rect
                  x={0}
                  y={band.start}
                  width={Math.max(datum.value > 0 ? 2 : 0, x(datum.value))}
                  height={band.size}
                  fill="var(--mantine-primary-color-filled)"
                  rx={2}
                />
                <text x={x(datum.value) + 6} y={band.centre + 4} fill="var(--mantine-color-text)">
                  {formatNumber(datum.value)}
                </text>
              </g>
            );
          })}
        </g>
      </svg>
      </div>
    </ChartFrame>
  );
}

function truncate(text: string, length: number): string {
  return text.length > length ? `${text.slice(0, length - 1)}…` : text;
}
