import { KMSClient } from '@aws-sdk/client-kms';
import type { Config } from '../../config.ts';

/** The function's KMS client (AWS mode only: locally the key service is the file-backed stand-in). */
export function kmsClientOf(config: Pick<Config, 'AWS_REGION'>): KMSClient {
  return new KMSClient({ region: config.AWS_REGION });
}
