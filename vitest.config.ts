import { defineConfig } from 'vitest/config';

/**
 * One root config, three projects:
 * - unit: pure code beside its source (`*.test.ts`), no services;
 * - integration: against the real local stand-ins (DynamoDB Local, s3rver, OIDC) started once by the global setup;
 * - infra: the CDK app synthesised and checked with `Template.fromStack`.
 */
export default defineConfig({
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['shared/**/*.test.ts', 'lambdas/**/*.test.ts', 'scripts/**/*.test.ts', 'web/src/**/*.test.{ts,tsx}'],
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          globalSetup: ['test/integration/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'infra',
          include: ['test/infra/**/*.test.ts'],
          testTimeout: 120_000,
          hookTimeout: 180_000,
        },
      },
    ],
  },
});
