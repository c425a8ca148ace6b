import { describe, expect, it } from 'vitest';
import { renderSignedIn, userWith } from '../../testing/render-signed-in.tsx';
import { CursorTable, type Column } from './cursor-table.tsx';

interface Item {
  id: string;
  name: string;
}
interface Gap {
  gap: string;
}

const columns: Column<Item>[] = [
  { header: 'Id', value: (row) => row.id },
  { header: 'Name', value: (row) => row.name },
];
const isGap = (row: Item | Gap): row is Gap => 'gap' in row;

describe('CursorTable span rows', () => {
  it('draws a span row as one cell across the table, and counts only the list’s items', () => {
    const html = renderSignedIn(
      <CursorTable<Item, Gap>
        label="Things"
        columns={columns}
        rows={[{ id: '1', name: 'one' }, { gap: 'nothing here' }, { id: '2', name: 'two' }]}
        rowKey={(row) => (isGap(row) ? `gap:${row.gap}` : row.id)}
        isLoading={false}
        hasNextPage={false}
        isFetchingNextPage={false}
        fetchNextPage={() => undefined}
        spanRow={{ is: isGap, render: (row) => <span>Gap: {row.gap}</span>, noun: 'gaps' }}
      />,
      userWith([]),
    );
    const text = html.replace(/<!-- -->/g, '');
    expect(text).toContain('2 shown, and 1 gaps');
    expect(text).toMatch(/<tr[^>]*data-span-row[^>]*><td[^>]*colSpan="2"[^>]*><span>Gap: nothing here<\/span><\/td><\/tr>/);
    expect(html.match(/<tr/g)?.length).toBe(4);
  });
});
