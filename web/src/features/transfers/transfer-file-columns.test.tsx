import { MantineProvider } from '@mantine/core';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { TransferItem } from '#shared/contract/entities/transfers.ts';
import { CursorTable } from '../../components/data/cursor-table.tsx';
import { fileColumns } from './transfer-file-columns.tsx';

const DEVICE = 'd'.repeat(64);
const OTHER = 'e'.repeat(64);

const files: TransferItem[] = [
  {
    source_path: 'demo/payloads/p-1',
    dest_path: 'verity/2026-11-24/p-1.m4a',
    checksums: { delivered_sha256: DEVICE, device_sha256: DEVICE },
    attempts: 1,
    file_state: 'Delivered',
    file_kind: 'Recording',
    payload_reference: 'p-1',
    size: 1_500_000,
    delivered_at: '2026-11-24T10:00:00.000Z',
  },
  {
    source_path: 'demo/payloads/p-2',
    dest_path: 'verity/2026-11-24/p-2.m4a',
    checksums: { delivered_sha256: OTHER, device_sha256: DEVICE },
    attempts: 3,
    file_state: 'Failed',
    file_kind: 'Recording',
    payload_reference: 'p-2',
    last_error: 'Connection reset by the server',
  },
  { source_path: 'manifest', dest_path: 'verity/2026-11-24/manifest.json', checksums: {}, attempts: 0, file_state: 'Pending', file_kind: 'Manifest' },
];

function render(): string {
  const html = renderToString(
    <MantineProvider>
      <CursorTable label="Transfer files" columns={fileColumns} rows={files} rowKey={(row) => row.dest_path} isLoading={false} hasNextPage={false} isFetchingNextPage={false} fetchNextPage={() => undefined} />
    </MantineProvider>,
  );
  return html.replace(/<[^>]+>/g, ' ').replace(/&quot;/g, '"').replace(/\s+/g, ' ');
}

describe('transfer files table', () => {
  it('shows each file with its size, both SHA-256 side by side and whether they match, its attempts and state', () => {
    const text = render();
    expect(text).toContain('p-1 demo/payloads/p-1 verity/2026-11-24/p-1.m4a 1.5 MB');
    expect(text).toContain(`Delivered ${DEVICE.slice(0, 10)} … ${DEVICE.slice(-6)} Device ${DEVICE.slice(0, 10)} … ${DEVICE.slice(-6)} ✓ Matches the device 1 Delivered`);
    expect(text).toMatch(/Matches the device.*Does not match the device.*Written by Verity: no device copy/);
    expect(text).toContain('Connection reset by the server');
    expect(text).toContain('✗ Does not match the device 3 Failed Connection reset by the server');
  });

  it('names each hash in full for screen readers', () => {
    const html = renderToString(
      <MantineProvider>
        <CursorTable label="Transfer files" columns={fileColumns} rows={files} rowKey={(row) => row.dest_path} isLoading={false} hasNextPage={false} isFetchingNextPage={false} fetchNextPage={() => undefined} />
      </MantineProvider>,
    );
    expect(html).toContain(`aria-label="Delivered SHA-256 ${OTHER}"`);
    expect(html).toContain(`aria-label="Device SHA-256 ${DEVICE}"`);
  });
});
