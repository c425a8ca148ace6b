import type { StackEnv } from '../../../scripts/local/stack.ts';

/** What the global setup shares with the tests (serialisable: it crosses into the test workers). */
export interface StackInfo {
  apiUrl: string;
  oidcIssuer: string;
  dynamoEndpoint: string;
  s3Endpoint: string;
  dataDir: string;
  env: StackEnv;
  clientIds: string[];
}

declare module 'vitest' {
  export interface ProvidedContext {
    stack: StackInfo;
  }
}
