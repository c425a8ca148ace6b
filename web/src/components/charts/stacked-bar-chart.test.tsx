import { MantineProvider } from '@mantine/core';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { StackedBarChart, summariseStacks } from './stacked-bar-chart.tsx';

describe('StackedBarChart', () => {
  it('draws one bar per label, a segment per non-zero value, with a legend and a summary of every value', () => {
    const html = renderToString(
      <MantineProvider>
        <StackedBarChart title="Outstanding by age" segments={['0–7 days', '8–30 days', '31+']} data={[{ label: 'Alice', values: [2, 0, 1] }, { label: 'Bob', values: [0, 3, 0] }]} />
      </MantineProvider>,
    );
    expect(html).toMatch(/<svg[^>]*role="img"/);
    expect(html).toContain('Outstanding by age: Alice 0–7 days 2, 8–30 days 0, 31+ 1; Bob 0–7 days 0, 8–30 days 3, 31+ 0.');
    expect(html.match(/<rect x=/g)?.length).toBe(3);
    expect(html).toMatch(/<ul[^>]*aria-label="Outstanding by age legend"/);
  });

  it('says when there is nothing to draw', () => {
    expect(summariseStacks('Outstanding', ['a'], [])).toBe('Outstanding: no data.');
  });
});
