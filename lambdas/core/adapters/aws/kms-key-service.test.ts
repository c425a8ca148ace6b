import { CreateKeyCommand, DecryptCommand, EncryptCommand, GenerateDataKeyCommand, KMSClient } from '@aws-sdk/client-kms';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { KeyUnwrapError } from '../../ports/key-service.ts';
import { createKmsKeyService } from './kms-key-service.ts';

const kms = mockClient(KMSClient);
const service = createKmsKeyService(new KMSClient({ region: 'eu-west-2' }));
const keyArn = 'arn:aws:kms:eu-west-2:123456789012:key/abc';

beforeEach(() => kms.reset());

describe('KMS key service', () => {
  it('creates a tagged symmetric key per tenant', async () => {
    kms.on(CreateKeyCommand).resolves({ KeyMetadata: { KeyId: 'abc', Arn: keyArn } });
    expect(await service.createTenantKey('acme')).toEqual({ keyId: keyArn });
    const input = kms.commandCalls(CreateKeyCommand)[0]?.args[0].input;
    expect(input).toMatchObject({ KeySpec: 'SYMMETRIC_DEFAULT', KeyUsage: 'ENCRYPT_DECRYPT', Tags: [{ TagKey: 'verity:client', TagValue: 'acme' }] });
  });

  it('generates AES-256 data keys bound to the encryption context', async () => {
    kms.on(GenerateDataKeyCommand).resolves({ Plaintext: new Uint8Array([1]), CiphertextBlob: new Uint8Array([2]) });
    expect(await service.generateDataKey(keyArn, { client: 'acme' })).toEqual({ plaintext: new Uint8Array([1]), wrapped: new Uint8Array([2]) });
    expect(kms.commandCalls(GenerateDataKeyCommand)[0]?.args[0].input).toEqual({ KeyId: keyArn, KeySpec: 'AES_256', EncryptionContext: { client: 'acme' } });
  });

  it('wraps and unwraps with the key id and context', async () => {
    kms.on(EncryptCommand).resolves({ CiphertextBlob: new Uint8Array([9]) });
    kms.on(DecryptCommand).resolves({ Plaintext: new Uint8Array([7]) });
    expect(await service.wrapKey(keyArn, new Uint8Array([7]), { client: 'acme' })).toEqual(new Uint8Array([9]));
    expect(await service.unwrapKey(keyArn, new Uint8Array([9]), { client: 'acme' })).toEqual(new Uint8Array([7]));
    expect(kms.commandCalls(DecryptCommand)[0]?.args[0].input).toEqual({ KeyId: keyArn, CiphertextBlob: new Uint8Array([9]), EncryptionContext: { client: 'acme' } });
  });

  it('reports a mismatched ciphertext as KeyUnwrapError and other failures as they are', async () => {
    kms
      .on(DecryptCommand)
      .rejectsOnce(Object.assign(new Error('bad'), { name: 'InvalidCiphertextException' }))
      .rejectsOnce(Object.assign(new Error('throttled'), { name: 'ThrottlingException' }));
    await expect(service.unwrapKey(keyArn, new Uint8Array([1]), { client: 'globex' })).rejects.toThrow(KeyUnwrapError);
    await expect(service.unwrapKey(keyArn, new Uint8Array([1]), { client: 'acme' })).rejects.toThrow('throttled');
  });
});
