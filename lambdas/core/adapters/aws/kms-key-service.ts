import {
  CreateKeyCommand,
  DecryptCommand,
  EncryptCommand,
  GenerateDataKeyCommand,
  GetPublicKeyCommand,
  SignCommand,
  VerifyCommand,
  type KMSClient,
} from '@aws-sdk/client-kms';
import { KeyUnwrapError, type KeyService } from '../../ports/key-service.ts';

/** KMS answers these when the ciphertext, key or context do not match: the caller's data is at fault, not KMS. */
const UNWRAP_FAILURES = new Set(['InvalidCiphertextException', 'IncorrectKeyException']);

/** The audit signing key is an ECC_NIST_P256 SIGN_VERIFY key (lib/stacks/data-stack.ts). */
const SIGNING_ALGORITHM = 'ECDSA_SHA_256';

/**
 * KeyService on KMS: one symmetric key per tenant (tagged with the client), data keys generated under it, the
 * encryption context binding every wrap to the tenant (and recorded by CloudTrail).
 */
export function createKmsKeyService(kms: KMSClient): KeyService {
  return {
    async createTenantKey(client) {
      const result = await kms.send(
        new CreateKeyCommand({
          Description: `Verity tenant key for ${client}`,
          KeyUsage: 'ENCRYPT_DECRYPT',
          KeySpec: 'SYMMETRIC_DEFAULT',
          Tags: [{ TagKey: 'verity:client', TagValue: client }],
        }),
      );
      const keyId = result.KeyMetadata?.Arn;
      if (!keyId) throw new Error('KMS CreateKey returned no key ARN');
      return { keyId };
    },
    async generateDataKey(keyId, context) {
      const result = await kms.send(new GenerateDataKeyCommand({ KeyId: keyId, KeySpec: 'AES_256', EncryptionContext: context }));
      if (!result.Plaintext || !result.CiphertextBlob) throw new Error('KMS GenerateDataKey returned no key');
      return { plaintext: result.Plaintext, wrapped: result.CiphertextBlob };
    },
    async wrapKey(keyId, plaintext, context) {
      const result = await kms.send(new EncryptCommand({ KeyId: keyId, Plaintext: plaintext, EncryptionContext: context }));
      if (!result.CiphertextBlob) throw new Error('KMS Encrypt returned no ciphertext');
      return result.CiphertextBlob;
    },
    async unwrapKey(keyId, wrapped, context) {
      try {
        const result = await kms.send(new DecryptCommand({ KeyId: keyId, CiphertextBlob: wrapped, EncryptionContext: context }));
        if (!result.Plaintext) throw new Error('KMS Decrypt returned no plaintext');
        return result.Plaintext;
      } catch (error) {
        if (UNWRAP_FAILURES.has((error as { name?: string }).name ?? '')) {
          throw new KeyUnwrapError('Wrapped key does not authenticate', { cause: error });
        }
        throw error;
      }
    },
    async sign(keyId, message) {
      const result = await kms.send(new SignCommand({ KeyId: keyId, Message: message, MessageType: 'RAW', SigningAlgorithm: SIGNING_ALGORITHM }));
      if (!result.Signature) throw new Error('KMS Sign returned no signature');
      return { signature: result.Signature, algorithm: SIGNING_ALGORITHM };
    },
    async verifySignature(keyId, message, signature, algorithm) {
      if (algorithm !== SIGNING_ALGORITHM) return false;
      try {
        const result = await kms.send(
          new VerifyCommand({ KeyId: keyId, Message: message, MessageType: 'RAW', Signature: signature, SigningAlgorithm: SIGNING_ALGORITHM }),
        );
        return result.SignatureValid === true;
      } catch (error) {
        // KMS answers a signature that does not verify with this exception, not with SignatureValid: false.
        if ((error as { name?: string }).name === 'KMSInvalidSignatureException') return false;
        throw error;
      }
    },
    async signingPublicKeyPem(keyId) {
      // The private half never leaves KMS; GetPublicKey answers the DER SubjectPublicKeyInfo.
      const result = await kms.send(new GetPublicKeyCommand({ KeyId: keyId }));
      if (!result.PublicKey) throw new Error('KMS GetPublicKey returned no key');
      const body = Buffer.from(result.PublicKey).toString('base64').replace(/.{1,64}/g, '$&\n');
      return `-----BEGIN PUBLIC KEY-----\n${body}-----END PUBLIC KEY-----\n`;
    },
  };
}
