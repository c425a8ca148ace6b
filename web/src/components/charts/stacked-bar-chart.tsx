import { Group, Text, type TitleOrder } from '@mantine/core';
import { useId } from 'react';
import { formatNumber } from '../../lib/format.ts';
import { ChartFrame, seriesStyle } from './chart-frame.tsx';
import { BARS_TOP, truncateLabel, useHorizontalBars, ValueGrid } from './horizontal-bars.tsx';

export interface StackedBarDatum {
  label: string;
  /** One value per segment, in the order of `segments`. */
  values: readonly number[];
}

const LABEL_WIDTH = 150;

/** "Oldest open items: alice 0-7 days 2, 8-30 days 1; bob …" — what a screen reader hears for the picture. */
export function summariseStacks(title: string, segments: readonly string[], data: readonly StackedBarDatum[]): string {
  if (data.length === 0) return `${title}: no data.`;
  const rows = data.map((datum) => `${datum.label} ${segments.map((segment, index) => `${segment} ${formatNumber(datum.values[index] ?? 0)}`).join(', ')}`);
  return `${title}: ${rows.join('; ')}.`;
}

/**
 * A horizontal stacked bar chart (one bar per label, one segment per series) drawn as the bar chart is: plain SVG at
 * its container's width, a text summary of every value, the total at the end of each bar, and the same numbers in the
 * toggleable table. Segments are told apart by a hatch pattern as well as colour, and the legend names them.
 */
export function StackedBarChart({
  title,
  segments,
  data,
  labelHeader = 'Label',
  titleOrder,
  emptyText = 'No data to show.',
}: {
  title: string;
  segments: readonly string[];
  data: readonly StackedBarDatum[];
  labelHeader?: string;
  titleOrder?: TitleOrder;
  emptyText?: string;
}) {
  const totals = data.map((datum) => datum.values.reduce((sum, value) => sum + Math.max(0, value), 0));
  const { ref, width, height, plotWidth, plotHeight, ticks, x, rows } = useHorizontalBars(data.length, Math.max(0, ...totals), LABEL_WIDTH);
  const titleId = useId();
  const descId = useId();
  const patternId = useId();

  return (
    <ChartFrame
      title={title}
      titleOrder={titleOrder}
      table={{ headers: [labelHeader, ...segments, 'Total'], rows: data.map((datum, index) => ({ label: datum.label, values: [...datum.values, totals[index] ?? 0] })) }}
    >
      <div ref={ref} style={{ width: '100%' }}>
        <svg viewBox={`0 0 ${width} ${height}`} width="100%" role="img" aria-labelledby={`${titleId} ${descId}`} style={{ display: 'block', fontSize: 12 }}>
          <title id={titleId}>{title}</title>
          <desc id={descId}>{summariseStacks(title, segments, data)}</desc>
          <defs>
            {segments.map((segment, index) => (
              <pattern key={segment} id={`${patternId}-${index}`} width={6} height={6} patternUnits="userSpaceOnUse" patternTransform={`rotate(${index * 45})`}>
                <rect width={6} height={6} fill={seriesStyle(index).colour} />
                {index > 0 && <line x1={0} y1={0} x2={0} y2={6} stroke="var(--mantine-color-body)" strokeWidth={index} strokeOpacity={0.6} />}
              </pattern>
            ))}
          </defs>
          <g transform={`translate(${LABEL_WIDTH} ${BARS_TOP})`}>
            <ValueGrid ticks={ticks} x={x} plotWidth={plotWidth} plotHeight={plotHeight} emptyText={data.length === 0 ? emptyText : undefined} />
            {data.map((datum, row) => {
              const band = rows[row];
              if (band === undefined) return null;
              let at = 0;
              return (
                <g key={datum.label}>
                  <text x={-8} y={band.centre + 4} textAnchor="end" fill="var(--mantine-color-text)">
                    {truncateLabel(datum.label, 20)}
                  </text>
                  {datum.values.map((value, index) => {
                    const start = at;
                    at += Math.max(0, value);
                    if (value <= 0) return null;
                    return <rect key={segments[index] ?? index} x={x(start)} y={band.start} width={Math.max(1, x(at) - x(start))} height={band.size} fill={`url(#${patternId}-${index})`} />;
                  })}
                  <text x={x(totals[row] ?? 0) + 6} y={band.centre + 4} fill="var(--mantine-color-text)">
                    {formatNumber(totals[row] ?? 0)}
                  </text>
                </g>
              );
            })}
          </g>
        </svg>
      </div>
      <Group gap="md" mt={4} component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }} aria-label={`${title} legend`}>
        {segments.map((segment, index) => (
          <Group key={segment} component="li" gap={6} wrap="nowrap">
            <svg width={14} height={14} aria-hidden focusable="false">
              <rect width={14} height={14} fill={`url(#${patternId}-${index})`} />
            </svg>
            <Text size="sm">{segment}</Text>
          </Group>
        ))}
      </Group>
    </ChartFrame>
  );
}
