/**
 * Binds a key operation to a tenant. KMS takes it as the encryption context (and logs it in CloudTrail); the local
 * provider authenticates it as additional data. Unwrapping with another context fails.
 */
export interface EncryptionContext {
  client: string;
  [name: string]: string;
}

/**
 * Tenant keys (KMS; the local AES-256-GCM provider on one machine). A tenant key (KEK) never leaves the service:
 * data keys (DEKs) are generated under it and stored only wrapped.
 */
export interface KeyService {
  /** Creates a key for a tenant and returns its id (KMS key ARN, or a local id). */
  createTenantKey(client: string): Promise<{ keyId: string }>;
  /** A fresh 256-bit data key: plaintext for immediate use, wrapped for storage. */
  generateDataKey(keyId: string, context: EncryptionContext): Promise<{ plaintext: Uint8Array; wrapped: Uint8Array }>;
  /** Wraps (encrypts) a key of up to 4 KiB under the tenant key. */
  wrapKey(keyId: string, plaintext: Uint8Array, context: EncryptionContext): Promise<Uint8Array>;
  /** Unwraps a wrapped key. Throws KeyUnwrapError when the key, context or bytes do not match. */
  unwrapKey(keyId: string, wrapped: Uint8Array, context: EncryptionContext): Promise<Uint8Array>;
  /**
   * Signs a message (at most 4 KiB) with a signing key: the audit trails' checkpoints. KMS: an asymmetric key
   * (ECDSA P-256, SHA-256), whose private half never leaves KMS; the local provider: ECDSA P-256 too, under a key
   * derived from its master key (it still verifies earlier checkpoints' HMAC-SHA-256). `algorithm` names how, so a
   * verifier can refuse a mismatch.
   */
  sign(keyId: string, message: Uint8Array): Promise<{ signature: Uint8Array; algorithm: string }>;
  /** Whether `signature` is the key's signature of `message` under `algorithm` (false for any mismatch). */
  verifySignature(keyId: string, message: Uint8Array, signature: Uint8Array, algorithm: string): Promise<boolean>;
  /** The public half of a signing key as PEM (SPKI): what a firm verifies signatures with offline (openssl). */
  signingPublicKeyPem(keyId: string): Promise<string>;
}

/** The wrapped key was tampered with, or belongs to another key or context. */
export class KeyUnwrapError extends Error {
  override readonly name = 'KeyUnwrapError';
}
