import type { Config } from '../../core/config.ts';
import { localSigningPublicKeyPem } from '../../core/adapters/local/local-key-service.ts';
import { auditSigningKeyId } from '../trail/signing-key.ts';

/**
 * The public half of the audit signing key, as PEM (SPKI): what a firm verifies an export's manifest and the
 * checkpoints with (openssl, or `npm run audit:verify -- --file`). In AWS it is the KMS key's (GetPublicKey: the
 * private half never leaves KMS); on one machine the local key service's, derived from its master key.
 */
export async function auditSigningPublicKeyPem(config: Pick<Config, 'AUDIT_SIGNING_KEY_ID' | 'VERITY_MODE' | 'DATA_DIR' | 'AWS_REGION'>): Promise<{ keyId: string; pem: string }> {
  const keyId = auditSigningKeyId(config);
  if (config.VERITY_MODE === 'local') return { keyId, pem: await localSigningPublicKeyPem({ dataDir: config.DATA_DIR as string }, keyId) };
  const { KMSClient, GetPublicKeyCommand } = await import('@aws-sdk/client-kms');
  const answer = await new KMSClient({ region: config.AWS_REGION }).send(new GetPublicKeyCommand({ KeyId: keyId }));
  if (answer.PublicKey === undefined) throw new Error('KMS GetPublicKey returned no key');
  const body = Buffer.from(answer.PublicKey).toString('base64').replace(/.{1,64}/g, '$&\n');
  return { keyId, pem: `-----BEGIN PUBLIC KEY-----\n${body}-----END PUBLIC KEY-----\n` };
}
