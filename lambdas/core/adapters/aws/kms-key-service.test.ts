import { createPublicKey, generateKeyPairSync } from 'node:crypto';
import { CreateKeyCommand, DecryptCommand, EncryptCommand, GenerateDataKeyCommand, GetPublicKeyCommand, KMSClient, SignCommand, VerifyCommand } from '@aws-sdk/client-kms';
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

  it('signs with the asymmetric key (ECDSA SHA-256 over the raw message) and verifies with it', async () => {
    kms.on(SignCommand).resolves({ Signature: new Uint8Array([5, 6]) });
    kms.on(VerifyCommand).resolves({ SignatureValid: true });
    const message = new TextEncoder().encode('{"sequence":3}');
    expect(await service.sign(keyArn, message)).toEqual({ signature: new Uint8Array([5, 6]), algorithm: 'ECDSA_SHA_256' });
    expect(kms.commandCalls(SignCommand)[0]?.args[0].input).toEqual({ KeyId: keyArn, Message: message, MessageType: 'RAW', SigningAlgorithm: 'ECDSA_SHA_256' });
    expect(await service.verifySignature(keyArn, message, new Uint8Array([5, 6]), 'ECDSA_SHA_256')).toBe(true);
    expect(kms.commandCalls(VerifyCommand)[0]?.args[0].input).toEqual({
      KeyId: keyArn,
      Message: message,
      MessageType: 'RAW',
      Signature: new Uint8Array([5, 6]),
      SigningAlgorithm: 'ECDSA_SHA_256',
    });
  });

  it('answers false for a signature KMS refuses or another algorithm, and passes other failures on', async () => {
    kms
      .on(VerifyCommand)
      .rejectsOnce(Object.assign(new Error('invalid'), { name: 'KMSInvalidSignatureException' }))
      .rejectsOnce(Object.assign(new Error('throttled'), { name: 'ThrottlingException' }));
    const message = new Uint8Array([1]);
    expect(await service.verifySignature(keyArn, message, new Uint8Array([9]), 'ECDSA_SHA_256')).toBe(false);
    await expect(service.verifySignature(keyArn, message, new Uint8Array([9]), 'ECDSA_SHA_256')).rejects.toThrow('throttled');
    expect(await service.verifySignature(keyArn, message, new Uint8Array([9]), 'HMAC_SHA_256')).toBe(false);
    expect(kms.commandCalls(VerifyCommand)).toHaveLength(2);
  });

  it('publishes the signing key\'s public half as PEM, as openssl reads it', async () => {
    const { publicKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
    const der = publicKey.export({ type: 'spki', format: 'der' });
    kms.on(GetPublicKeyCommand).resolves({ PublicKey: new Uint8Array(der) });
    const pem = await service.signingPublicKeyPem(keyArn);
    expect(kms.commandCalls(GetPublicKeyCommand)[0]?.args[0].input).toEqual({ KeyId: keyArn });
    expect(createPublicKey(pem).export({ type: 'spki', format: 'der' })).toEqual(der);
    kms.on(GetPublicKeyCommand).resolves({});
    await expect(service.signingPublicKeyPem(keyArn)).rejects.toThrow('no key');
  });
});
