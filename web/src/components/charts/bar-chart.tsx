import type { TitleOrder } from '@mantine/core';
import { useId } from 'react';
import { formatNumber } from '../../lib/format.ts';
import { ChartFrame, summarise } from './chart-frame.tsx';
import { BARS_TOP, truncateLabel, useHorizontalBars, ValueGrid } from './horizontal-bars.tsx';

export interface BarDatum {
  label: string;
  value: number;
}

const LABEL_WIDTH = 130;

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
  const { ref, width, height, plotWidth, plotHeight, ticks, x, rows } = useHorizontalBars(data.length, Math.max(0, ...data.map((datum) => datum.value)), LABEL_WIDTH);
  const titleId = useId();
  const descId = useId();

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
        <g transform={`translate(${LABEL_WIDTH} ${BARS_TOP})`}>
          <ValueGrid ticks={ticks} x={x} plotWidth={plotWidth} plotHeight={plotHeight} emptyText={data.length === 0 ? emptyText : undefined} />
          {data.map((datum, index) => {
            const band = rows[index];
            if (band === undefined) return null;
            return (
              <g key={datum.label}>
                <text x={-8} y={band.centre + 4} textAnchor="end" fill="var(--mantine-color-text)">
                  {truncateLabel(datum.label, 18)}
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
