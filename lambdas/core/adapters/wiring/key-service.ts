import type { PortAdapter } from '../../dependencies.ts';
import type { KeyService } from '../../ports/key-service.ts';
import { createLocalKeyService } from '../local/local-key-service.ts';
import { loadedOnFirstCall } from './loaded-on-first-call.ts';

const KEY_SERVICE_METHODS = {
  createTenantKey: true,
  generateDataKey: true,
  wrapKey: true,
  unwrapKey: true,
  sign: true,
  verifySignature: true,
  signingPublicKeyPem: true,
} as const satisfies Record<keyof KeyService, true>;

/**
 * Tenant keys: KMS in AWS, key files under DATA_DIR locally. The KMS adapter and client load on the first key call,
 * not at the function's start (loaded-on-first-call.ts).
 */
export const keyServiceAdapter: PortAdapter<'keys'> = {
  port: 'keys',
  build: ({ config }) =>
    config.VERITY_MODE === 'local'
      ? createLocalKeyService({ dataDir: config.DATA_DIR as string })
      : loadedOnFirstCall<KeyService>(KEY_SERVICE_METHODS, async () => {
          const [{ createKmsKeyService }, { kmsClientOf }] = await Promise.all([import('../aws/kms-key-service.ts'), import('./kms-client.ts')]);
          return createKmsKeyService(kmsClientOf(config));
        }),
};
