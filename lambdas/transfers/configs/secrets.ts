import type { Dependencies } from '#core/dependencies.ts';
import type { EncryptionContext } from '#core/ports/key-service.ts';
import type { SealedSecret } from '#core/store/entities/transfer-config.ts';
import { deviceKeysOf } from '../../device-crypto/public.ts';

/** The secured data of a transfer configuration (spec point 3). */
export type SecretField = 'zip_password' | 'sftp_password';

type SecretDependencies = Pick<Dependencies, 'table' | 'keys'>;

/**
 * Binds a sealed secret to its tenant, configuration and field: KMS logs and checks it as the encryption context, so
 * a sealed password copied onto another configuration, field or tenant does not open.
 */
function contextOf({ client, configReference, field }: SecretPlace): EncryptionContext {
  return { client, purpose: 'transfer-secret', transfer_config_reference: configReference, field };
}

/** Where a secret belongs: its tenant, configuration and field (what it is bound to). */
export interface SecretPlace {
  client: string;
  configReference: string;
  field: SecretField;
}

/**
 * Seals a secret under the tenant's key (the one tenant key of the key service, created with the tenant's device keys
 * on first use): a password is at most 255 characters, well inside the 4 KiB the key service wraps directly.
 */
export async function sealSecret(dependencies: SecretDependencies, place: SecretPlace, plaintext: string): Promise<SealedSecret> {
  const { tenantKeyId } = await deviceKeysOf(dependencies, place.client);
  const wrapped = await dependencies.keys.wrapKey(tenantKeyId, Buffer.from(plaintext, 'utf8'), contextOf(place));
  return { key_id: tenantKeyId, wrapped: Buffer.from(wrapped).toString('base64') };
}

/** Opens a sealed secret (the transfer job, when it packages or connects). Throws KeyUnwrapError on any mismatch. */
export async function openSecret(dependencies: Pick<Dependencies, 'keys'>, place: SecretPlace, sealed: SealedSecret): Promise<string> {
  const plaintext = await dependencies.keys.unwrapKey(sealed.key_id, Buffer.from(sealed.wrapped, 'base64'), contextOf(place));
  return Buffer.from(plaintext).toString('utf8');
}
