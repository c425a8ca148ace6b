import type { SftpEndpoint, StackEnv } from '../../../scripts/local/stack.ts';

/** What the global setup shares with the tests (serialisable: it crosses into the test workers). */
export interface StackInfo {
  apiUrl: string;
  oidcIssuer: string;
  dynamoEndpoint: string;
  s3Endpoint: string;
  /** The SFTP stand-in (a customer's SFTP server): loopback address, this run's account, host key. */
  sftp: SftpEndpoint;
  dataDir: string;
  env: StackEnv;
  clientIds: string[];
}

declare module 'vitest' {
  export interface ProvidedContext {
    stack: StackInfo;
  }
}
