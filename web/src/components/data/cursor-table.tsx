import { Alert, Button, Group, Loader, ScrollArea, Table, Text } from '@mantine/core';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useRef, type ReactNode } from 'react';
import { downloadCsv, toCsv, type CsvColumn } from '../../lib/csv.ts';
import { formatNumber } from '../../lib/format.ts';

/** One column: its header, how a cell renders, and the plain value the CSV export writes. */
export interface Column<T> extends CsvColumn<T> {
  /** Defaults to the CSV value as text. */
  render?: (row: T) => ReactNode;
  /** False keeps the column out of the CSV export (a row's checkbox, say). */
  exportable?: boolean;
}

export interface CursorTableProps<T, S = never> {
  /** Names the table for assistive technology, and the CSV file. */
  label: string;
  columns: readonly Column<T>[];
  rows: readonly (T | S)[];
  rowKey: (row: T | S) => string;
  isLoading: boolean;
  error?: Error | null;
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => unknown;
  /** Shown when the list is empty (after loading). */
  empty?: ReactNode;
  /**
   * Rows that are not items of the list but stand where one would have been (a missing recording): drawn as one cell
   * across the table, left out of the count and of the CSV export (which writes the list's items).
   */
  spanRow?: { is: (row: T | S) => row is S; render: (row: S) => ReactNode; noun: string };
}

/** The paging state CursorTable needs, taken from a `useCursorList` result: `<CursorTable {...pagingOf(list)} … />`. */
export function pagingOf(list: {
  isLoading: boolean;
  error: Error | null;
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => unknown;
}): Pick<CursorTableProps<unknown>, 'isLoading' | 'error' | 'hasNextPage' | 'isFetchingNextPage' | 'fetchNextPage'> {
  const { isLoading, error, hasNextPage, isFetchingNextPage, fetchNextPage } = list;
  return { isLoading, error, hasNextPage, isFetchingNextPage, fetchNextPage };
}

const ROW_HEIGHT = 44;
/** Up to this many rows render plainly; beyond it only the rows in view are in the DOM (DESIGN.md §10). */
const VIRTUALISE_ABOVE = 100;

/**
 * The list every screen uses: a table of the rows loaded so far, "Load more" while the cursor says there is more,
 * and "Export CSV" of exactly what is shown. Long lists render only the visible rows.
 */
export function CursorTable<T, S = never>(props: CursorTableProps<T, S>) {
  const { label, columns, rows, rowKey, isLoading, error, hasNextPage, isFetchingNextPage, fetchNextPage, empty, spanRow } = props;
  const items: readonly T[] = spanRow === undefined ? (rows as readonly T[]) : rows.flatMap((row) => (spanRow.is(row) ? [] : [row]));
  const spans = rows.length - items.length;
  const viewport = useRef<HTMLDivElement>(null);
  const virtual = rows.length > VIRTUALISE_ABOVE;
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => viewport.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 10,
    enabled: virtual,
  });

  const exportCsv = () => downloadCsv(`${label.toLowerCase().replace(/[^a-z0-9]+/g, '-')}.csv`, toCsv(columns.filter((column) => column.exportable !== false), items));

  const renderRow = (row: T | S) =>
    spanRow !== undefined && spanRow.is(row) ? (
      <Table.Tr key={rowKey(row)} data-span-row>
        <Table.Td colSpan={columns.length}>{spanRow.render(row)}</Table.Td>
      </Table.Tr>
    ) : (
      <Table.Tr key={rowKey(row)}>
        {columns.map((column) => (
          <Table.Td key={column.header}>{column.render ? column.render(row as T) : String(column.value(row as T) ?? '—')}</Table.Td>
        ))}
      </Table.Tr>
    );

  const inView = virtual ? virtualizer.getVirtualItems() : [];
  const before = virtual && inView.length > 0 ? (inView[0]?.start ?? 0) : 0;
  const after = virtual && inView.length > 0 ? virtualizer.getTotalSize() - (inView[inView.length - 1]?.end ?? 0) : 0;

  return (
    <div>
      <Group justify="space-between" mb="xs">
        <Text size="sm" c="dimmed" aria-live="polite">
          {isLoading ? 'Loading…' : `${formatNumber(items.length)} shown${spans > 0 ? `, and ${formatNumber(spans)} ${spanRow?.noun ?? ''}` : ''}${hasNextPage ? ', more available' : ''}`}
        </Text>
        <Button variant="default" size="xs" onClick={exportCsv} disabled={items.length === 0}>
          Export CSV
        </Button>
      </Group>
      {error && !isLoading && rows.length === 0 ? (
        <Alert color="red" title="The list could not be loaded">
          {error.message}
        </Alert>
      ) : (
        <ScrollArea.Autosize
          mah={virtual ? '70vh' : undefined}
          viewportRef={viewport}
          // A focusable region: a wide table scrolls sideways, and rows with no link or button would otherwise leave
          // keyboard users no way to scroll it (WCAG 2.1.1).
          viewportProps={{ tabIndex: 0, role: 'region', 'aria-label': `${label} (scrollable)` }}
          type="auto"
        >
          <Table striped highlightOnHover aria-label={label} stickyHeader={virtual} verticalSpacing="xs">
            <Table.Thead>
              <Table.Tr>
                {columns.map((column) => (
                  <Table.Th key={column.header} scope="col">
                    {column.header}
                  </Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {virtual ? (
                <>
                  {before > 0 && <tr aria-hidden style={{ height: before }} />}
                  {inView.map((item) => renderRow(rows[item.index] as T | S))}
                  {after > 0 && <tr aria-hidden style={{ height: after }} />}
                </>
              ) : (
                rows.map(renderRow)
              )}
              {!isLoading && rows.length === 0 && (
                <Table.Tr>
                  <Table.Td colSpan={columns.length}>
                    <Text c="dimmed" ta="center" py="md">
                      {empty ?? 'Nothing to show.'}
                    </Text>
                  </Table.Td>
                </Table.Tr>
              )}
            </Table.Tbody>
          </Table>
        </ScrollArea.Autosize>
      )}
      {isLoading && (
        <Group justify="center" py="md">
          <Loader size="sm" aria-label="Loading" />
        </Group>
      )}
      {hasNextPage && (
        <Group justify="center" mt="sm">
          <Button variant="light" onClick={() => void fetchNextPage()} loading={isFetchingNextPage}>
            Load more
          </Button>
        </Group>
      )}
    </div>
  );
}
