import type { Dependencies } from '../../core/dependencies.ts';
import { auditSigningKeyId } from '../trail/signing-key.ts';

/**
 * The public half of the audit signing key, as PEM (SPKI): what a firm verifies an export's manifest and the
 * checkpoints with (openssl, or `npm run audit:verify -- --file`). The key service answers it: KMS GetPublicKey in
 * AWS (the private half never leaves KMS), the local key service's own derivation on one machine.
 */
export async function auditSigningPublicKeyPem(deps: Pick<Dependencies, 'keys' | 'config'>): Promise<{ keyId: string; pem: string }> {
  const keyId = auditSigningKeyId(deps.config);
  return { keyId, pem: await deps.keys.signingPublicKeyPem(keyId) };
}
