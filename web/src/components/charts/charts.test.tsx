import { MantineProvider } from '@mantine/core';
import type { ReactNode } from 'react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { BarChart } from './bar-chart.tsx';
import { LineChart } from './line-chart.tsx';

const render = (node: ReactNode) => renderToString(<MantineProvider>{node}</MantineProvider>);

describe('charts', () => {
  it('draw a bar chart as a named image whose description carries every value', () => {
    const html = render(<BarChart title="App versions" data={[{ label: '5.2.0', value: 1234 }, { label: '5.1.3', value: 2 }]} />);
    expect(html).toMatch(/<svg[^>]*role="img"/);
    expect(html).toContain('<title');
    expect(html).toContain('App versions: 5.2.0 1,234, 5.1.3 2.');
    expect(html).toContain('Show table');
  });

  it('draw a line chart with a legend and a summary of each series', () => {
    const html = render(
      <LineChart title="Payloads per day" categories={['2026-11-20', '2026-11-21']} series={[{ name: 'Call', values: [3, 1] }, { name: 'SMS', values: [0, 5] }]} />,
    );
    expect(html).toContain('Totals from 2026-11-20 to 2026-11-21: Call 4, SMS 5.');
    expect(html).toMatch(/<ul[^>]*aria-label="Payloads per day legend"/);
    expect(html).toContain('Call, 2026-11-20: 3');
  });
});
