import { Group, Text, type TitleOrder } from '@mantine/core';
import { useElementSize } from '@mantine/hooks';
import { useId } from 'react';
import { formatNumber } from '../../lib/format.ts';
import { ChartFrame, Marker, seriesStyle, summarise } from './chart-frame.tsx';
import { linePath, linearScale, niceScale, pointPositions } from './scale.ts';

export interface LineSeries {
  name: string;
  /** One value per category, in the categories' order. */
  values: readonly number[];
}

/** Drawn at its container's width in pixels (so text stays 12 px); this until measured (and on the server). */
const DEFAULT_WIDTH = 640;
const HEIGHT = 260;
const MARGIN = { top: 10, right: 24, bottom: 34, left: 48 };
/** Beyond this many categories only every n-th x label is drawn, so labels never overlap. */
const MAX_X_LABELS = 8;

/**
 * A line chart of one or more series over ordered categories (periods), in plain SVG. Each series has its own colour,
 * dash pattern and marker shape (shown in the legend), so they are told apart without colour. The summary read to
 * assistive technology gives each series' total; the table gives every number.
 */
export function LineChart({
  title,
  categories,
  series,
  categoryHeader = 'Period',
  titleOrder,
}: {
  title: string;
  categories: readonly string[];
  series: readonly LineSeries[];
  categoryHeader?: string;
  titleOrder?: TitleOrder;
}) {
  const { ref, width: measured } = useElementSize();
  const width = measured > 0 ? Math.max(280, Math.round(measured)) : DEFAULT_WIDTH;
  const titleId = useId();
  const descId = useId();
  const plotWidth = width - MARGIN.left - MARGIN.right;
  const plotHeight = HEIGHT - MARGIN.top - MARGIN.bottom;
  const scale = niceScale(Math.max(0, ...series.flatMap((line) => line.values)));
  const y = linearScale(scale.max, plotHeight);
  const xs = pointPositions(categories.length, plotWidth);
  const labelEvery = Math.max(1, Math.ceil(categories.length / MAX_X_LABELS));
  const totals = series.map((line) => [line.name, line.values.reduce((sum, value) => sum + value, 0)] as const);
  const range = categories.length > 0 ? ` from ${categories[0]} to ${categories[categories.length - 1]}` : '';

  return (
    <ChartFrame
      title={title}
      titleOrder={titleOrder}
      table={{
        headers: [categoryHeader, ...series.map((line) => line.name)],
        rows: categories.map((category, index) => ({ label: category, values: series.map((line) => line.values[index] ?? 0) })),
      }}
    >
      <div ref={ref} style={{ width: '100%' }}>
      <svg
        viewBox={`0 0 ${width} ${HEIGHT}`}
        width="100%"
        role="img"
        aria-labelledby={`${titleId} ${descId}`}
        style={{ display: 'block', fontSize: 12 }}
      >
        <title id={titleId}>{title}</title>
        <desc id={descId}>{summarise(`Totals${range}`, totals)}</desc>
        <g transform={`translate(${MARGIN.left} ${MARGIN.top})`}>
          {scale.ticks.map((tick) => (
            <g key={tick} transform={`translate(0 ${plotHeight - y(tick)})`}>
              <line x2={plotWidth} stroke="var(--mantine-color-default-border)" />
              <text x={-8} y={4} textAnchor="end" fill="var(--mantine-color-dimmed)">
                {formatNumber(tick)}
              </text>
            </g>
          ))}
          {categories.map((category, index) =>
            index % labelEvery === 0 || index === categories.length - 1 ? (
              <text
                key={category}
                x={xs[index]}
                y={plotHeight + 20}
                textAnchor={categories.length > 1 && index === 0 ? 'start' : categories.length > 1 && index === categories.length - 1 ? 'end' : 'middle'}
                fill="var(--mantine-color-dimmed)"
              >
                {category}
              </text>
            ) : null,
          )}
          {categories.length === 0 && (
            <text x={plotWidth / 2} y={plotHeight / 2} textAnchor="middle" fill="var(--mantine-color-dimmed)">
              No data to show.
            </text>
          )}
          {series.map((line, seriesIndex) => {
            const style = seriesStyle(seriesIndex);
            const points = line.values.map((value, index) => [xs[index] ?? 0, plotHeight - y(value)] as const);
            return (
              <g key={line.name}>
                <path d={linePath(points)} fill="none" stroke={style.colour} strokeWidth={2} strokeDasharray={style.dash} />
                {points.map(([px, py], index) => (
                  <g key={categories[index] ?? index}>
                    <Marker x={px} y={py} style={style} />
                    <title>{`${line.name}, ${categories[index] ?? ''}: ${formatNumber(line.values[index])}`}</title>
                  </g>
                ))}
              </g>
            );
          })}
        </g>
      </svg>
      </div>
      {series.length > 0 && (
        <Group gap="md" mt={4} component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }} aria-label={`${title} legend`}>
          {series.map((line, index) => {
            const style = seriesStyle(index);
            return (
              <Group key={line.name} component="li" gap={6} wrap="nowrap">
                <svg width={30} height={12} aria-hidden focusable="false">
                  <line x1={1} x2={29} y1={6} y2={6} stroke={style.colour} strokeWidth={2} strokeDasharray={style.dash} />
                  <Marker x={15} y={6} style={style} size={3.5} />
                </svg>
                <Text size="sm">{line.name}</Text>
              </Group>
            );
          })}
        </Group>
      )}
    </ChartFrame>
  );
}
