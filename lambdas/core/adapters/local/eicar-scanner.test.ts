import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createEicarScanner } from './eicar-scanner.ts';

const signature = 'X5O!P%@AP[4\\PZX54(P^)7CC)7}$' + 'EICAR-STANDARD-ANTIVIRUS-TEST-FILE!$H+H*';
const scan = (chunks: Array<string | Buffer>) =>
  createEicarScanner().inspect({ bucket: 'raw', key: 'k', revision: undefined, contentLength: 0, body: async () => Readable.from(chunks) });

describe('EICAR scanner', () => {
  it('flags the test signature, even split across chunks', async () => {
    expect(await scan([Buffer.from(`prefix ${signature} suffix`)])).toEqual({ verdict: 'infected', signature: 'EICAR-Test-File' });
    expect(await scan([Buffer.from('a'.repeat(100) + signature.slice(0, 30)), Buffer.from(signature.slice(30))])).toMatchObject({ verdict: 'infected' });
    const oneByteChunks = [...Buffer.from(signature)].map((byte) => Buffer.from([byte]));
    expect(await scan(oneByteChunks)).toMatchObject({ verdict: 'infected' });
  });

  it('passes clean and empty objects, and near misses', async () => {
    expect(await scan([Buffer.from('hello')])).toEqual({ verdict: 'clean' });
    expect(await scan([])).toEqual({ verdict: 'clean' });
    expect(await scan([Buffer.from(signature.slice(0, -1))])).toEqual({ verdict: 'clean' });
  });
});
