import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createMessage, decrypt, encrypt, readKey, readMessage, readPrivateKey } from 'openpgp';
import { describe, expect, it } from 'vitest';
import { TransferConfigRequest } from '#shared/contract/entities/transfers.ts';
import { PAYLOAD_TYPES } from '#shared/constants/payloads.ts';
import { egressCheckOf, refusedAtSave } from '../../../lambdas/core/egress/egress-check.ts';
import { PUBLIC_ADDRESS_MESSAGE } from '../../../lambdas/core/egress/egress-policy.ts';
import { configProblems } from '../../../lambdas/transfers/configs/validation.ts';
import { DEMO_SFTP } from '../sftp.ts';
import { demoTransferConfigRequest, demoTransferPublicKey } from './transfer-config.ts';

const sftp = { host: '127.0.0.1', ...DEMO_SFTP, hostKeyFingerprint: `SHA256:${'A'.repeat(43)}` };

describe('the demo transfer configuration', () => {
  it('is a request the contract and the transfer checks accept, its loopback server only where the stack allows it', async () => {
    const request = TransferConfigRequest.parse(demoTransferConfigRequest(sftp));
    expect(request).toMatchObject({ target_type: 'SFTP', transfer_file_format: 'ZippedWithPassword', schedule: 'cron(0 2 * * ? *)' });
    // Without the local stack's allow-list (EGRESS_ALLOW) the egress policy refuses the stand-in's loopback address...
    expect(await configProblems(request, undefined, { payloadTypes: [...PAYLOAD_TYPES] }, new Date())).toEqual([
      `body.params.server: ${PUBLIC_ADDRESS_MESSAGE}`,
    ]);
    // ...and with exactly the stand-in's host and port allowed, as the local stack sets it, the server passes.
    expect(await refusedAtSave(sftp.host, sftp.port, egressCheckOf([`${sftp.host}:${sftp.port}`]))).toBe(false);
  });

  it('encrypts to a key whose private half, kept beside it, decrypts', async () => {
    const privateKey = await readPrivateKey({ armoredKey: readFileSync(join(import.meta.dirname, 'demo-transfer-pgp-private.asc'), 'utf8') });
    const encrypted = await encrypt({
      message: await createMessage({ text: 'delivered' }),
      encryptionKeys: await readKey({ armoredKey: demoTransferPublicKey() }),
    });
    const { data } = await decrypt({ message: await readMessage({ armoredMessage: encrypted }), decryptionKeys: privateKey });
    expect(data).toBe('delivered');
  });
});
