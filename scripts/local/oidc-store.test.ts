import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createFileStore } from './oidc-store.ts';

const dir = mkdtempSync(join(tmpdir(), 'verity-oidc-store-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('file-backed oidc-provider adapter', () => {
  it('survives a restart (a new store over the same file)', async () => {
    const file = join(dir, 'a.json');
    const Adapter = createFileStore(file);
    await new Adapter('RefreshToken').upsert('rt1', { grantId: 'g1', uid: 'u1' }, 3600);
    const Reopened = createFileStore(file);
    expect(await new Reopened('RefreshToken').find('rt1')).toEqual({ grantId: 'g1', uid: 'u1' });
    expect(await new Reopened('Session').find('rt1')).toBeUndefined();
    expect(await new Reopened('RefreshToken').findByUid('u1')).toEqual({ grantId: 'g1', uid: 'u1' });
  });

  it('forgets expired entries, consumes and revokes by grant', async () => {
    const Adapter = createFileStore(join(dir, 'b.json'));
    const codes = new Adapter('AuthorizationCode');
    await codes.upsert('old', { grantId: 'g' }, -1);
    expect(await codes.find('old')).toBeUndefined();
    await codes.upsert('c1', { grantId: 'g2' }, 60);
    await codes.consume('c1');
    expect((await codes.find('c1'))?.consumed).toEqual(expect.any(Number));
    await new Adapter('AccessToken').upsert('a1', { grantId: 'g2' }, 60);
    await codes.revokeByGrantId('g2');
    expect(await codes.find('c1')).toBeUndefined();
    expect(await new Adapter('AccessToken').find('a1')).toBeUndefined();
  });

  it('starts empty on a corrupt file instead of refusing to start', async () => {
    const file = join(dir, 'c.json');
    writeFileSync(file, '{not json');
    const Adapter = createFileStore(file);
    expect(await new Adapter('Session').find('x')).toBeUndefined();
    await new Adapter('Session').upsert('s', { uid: 'x' });
    expect(JSON.parse(readFileSync(file, 'utf8'))).toHaveProperty('Session:s');
  });
});
