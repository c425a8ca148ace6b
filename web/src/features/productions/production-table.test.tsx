import { describe, expect, it } from 'vitest';
import type { Production } from '#shared/contract/entities/productions.ts';
import { renderSignedIn, userWith } from '../../testing/render-signed-in.tsx';
import { controlRange, destinationWords, partLinks, ProductionTable, productionShare } from './production-table.tsx';

const base: Production = {
  client: 'acme',
  production_reference: '01M8K836WT6A0AAGFM52CS3R4A',
  production_kind: 'Case',
  case_reference: '01M8K83415T8X9D73KZWBAH778',
  criteria: { custodians: ['alice'], from: '2026-04-01T00:00:00.000Z', to: '2026-04-30T23:59:59.000Z' },
  control_prefix: 'ABC',
  destination: { type: 'Download' },
  production_state: 'InProgress',
  documents_total: 40,
  documents_done: 10,
  failures: [],
  control_first: 'ABC00000001',
  control_last: 'ABC00000040',
  created_at: '2026-11-29T09:00:00.000Z',
  created_by: 'officer',
};

describe('the production log', () => {
  it('says where a production went, which control numbers it gave and how far it is', () => {
    expect(destinationWords(base)).toBe('Download link');
    expect(destinationWords({ ...base, destination: { type: 'Transfer', transfer_config_reference: 'to-sftp' } })).toBe('Transfer to-sftp');
    expect(controlRange(base)).toBe('ABC00000001 – ABC00000040');
    expect(controlRange({ ...base, control_last: 'ABC00000001' })).toBe('ABC00000001');
    expect(productionShare(base)).toBe(25);
    expect(productionShare({ ...base, production_state: 'Succeeded' })).toBe(100);
    expect(productionShare({ ...base, documents_total: undefined })).toBe(0);
  });

  it('moves while running, offers the download only when ready to those who may download', () => {
    const running = renderSignedIn(<ProductionTable productions={[base]} label="Log" />, userWith(['productions:Download']));
    expect(running).toContain('aria-label="Production progress: 10 of 40 documents"');
    expect(running).toContain('data-striped="true"');
    expect(running).not.toContain('>Download<');
    const ready = { ...base, production_state: 'Succeeded' as const, documents_done: 40 };
    expect(renderSignedIn(<ProductionTable productions={[ready]} label="Log" />, userWith(['productions:Download']))).toContain('>Download<');
    expect(renderSignedIn(<ProductionTable productions={[ready]} label="Log" />, userWith([]))).not.toContain('>Download<');
    const failed = { ...base, production_state: 'Failed' as const, error_message: '1 of 40 documents could not be produced: 01ABC (content: tampered)' };
    expect(renderSignedIn(<ProductionTable productions={[failed]} label="Log" />, userWith(['productions:Download']))).toContain('1 of 40 documents could not be produced');
  });

  it('names who asked as they were named then, and a production kept before names were kept by its reference', () => {
    const named = { ...base, created_by: 'demo-admin', created_by_actor: { reference: 'demo-admin', kind: 'user' as const, name: 'Dana Admin', email: 'admin@demo.test' } };
    expect(renderSignedIn(<ProductionTable productions={[named]} label="Log" />, userWith([]))).toContain('Dana Admin (admin@demo.test)');
    expect(renderSignedIn(<ProductionTable productions={[base]} label="Log" />, userWith([]))).toContain('>officer<');
  });

  it('offers each part of a production in parts by its place and file, and nothing more for one archive', () => {
    const one = { url: 'https://s3/p.zip', expires_at: '2026-11-29T09:15:00.000Z', file_name: 'P.zip' };
    expect(partLinks(one)).toEqual([]);
    expect(partLinks({ ...one, parts: [{ url: one.url, file_name: 'P.zip' }] })).toEqual([]);
    const parts = [1, 2, 3].map((part) => ({ url: `https://s3/p${part}.zip`, file_name: `P_part00${part}.zip` }));
    expect(partLinks({ ...one, parts })).toEqual([
      { url: 'https://s3/p1.zip', label: 'Part 1 of 3: P_part001.zip' },
      { url: 'https://s3/p2.zip', label: 'Part 2 of 3: P_part002.zip' },
      { url: 'https://s3/p3.zip', label: 'Part 3 of 3: P_part003.zip' },
    ]);
  });
});
