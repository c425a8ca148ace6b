import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeRunningStack } from '../local/running-stack.ts';
import { DEFAULT_STACK_URL, resolveStackUrl } from './stack-url.ts';

/** A healthy "stack" on a free port: what `findRunningStack` checks before trusting a stack.json. */
let server: Server;
let apiUrl: string;
const dataDir = mkdtempSync(join(tmpdir(), 'verity-stack-url-'));
beforeAll(async () => {
  server = createServer((request, response) => {
    response.statusCode = request.url === '/healthz' ? 200 : 404;
    response.end('{}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  apiUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  rmSync(dataDir, { recursive: true, force: true });
});

describe('the stack the device simulator talks to', () => {
  it('is the stack running on the data folder (its stack.json), on whatever port it runs', async () => {
    const forget = writeRunningStack(dataDir, { pid: process.pid, apiUrl, env: {} });
    try {
      expect(await resolveStackUrl({ env: {}, dataDir })).toEqual({ url: apiUrl, from: `the stack running on ${dataDir}` });
    } finally {
      await forget();
    }
  });

  it('is localhost on PORT when set, and what --url or VERITY_URL say before that', async () => {
    const forget = writeRunningStack(dataDir, { pid: process.pid, apiUrl, env: {} });
    try {
      expect(await resolveStackUrl({ env: { PORT: '4123' }, dataDir })).toEqual({ url: 'http://localhost:4123', from: 'PORT' });
      expect((await resolveStackUrl({ env: { PORT: '4123', VERITY_URL: 'http://10.0.0.2:9000/' }, dataDir })).url).toBe('http://10.0.0.2:9000');
      expect((await resolveStackUrl({ url: 'http://localhost:5000', env: { PORT: '4123' }, dataDir })).url).toBe('http://localhost:5000');
      await expect(resolveStackUrl({ env: { PORT: 'eighty' }, dataDir })).rejects.toThrow(/PORT must be a port number/);
    } finally {
      await forget();
    }
  });

  it('falls back to localhost:3000, saying why, when no stack runs there', async () => {
    const found = await resolveStackUrl({ env: {}, dataDir });
    expect(found.url).toBe(DEFAULT_STACK_URL);
    expect(found.from).toMatch(/not running/);
    // A stack.json left by a process that is gone is not a running stack.
    const forget = writeRunningStack(dataDir, { pid: 2 ** 22 + 12345, apiUrl, env: {} });
    try {
      expect((await resolveStackUrl({ env: {}, dataDir })).url).toBe(DEFAULT_STACK_URL);
    } finally {
      await forget();
    }
  });
});
