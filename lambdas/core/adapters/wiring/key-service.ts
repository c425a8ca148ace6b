import { KMSClient } from '@aws-sdk/client-kms';
import type { PortAdapter } from '../../dependencies.ts';
import { createKmsKeyService } from '../aws/kms-key-service.ts';
import { createLocalKeyService } from '../local/local-key-service.ts';

/** Tenant keys: KMS in AWS, key files under DATA_DIR locally. */
export const keyServiceAdapter: PortAdapter<'keys'> = {
  port: 'keys',
  build: ({ config }) =>
    config.VERITY_MODE === 'local'
      ? createLocalKeyService({ dataDir: config.DATA_DIR as string })
      : createKmsKeyService(new KMSClient({ region: config.AWS_REGION })),
};
