// @ts-check
import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** Endpoint-group folders under lambdas/ (everything but core and jobs, which any group may use). */
const endpointGroups = readdirSync(new URL('./lambdas/', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && !['core', 'jobs'].includes(entry.name))
  .map((entry) => entry.name);

/** Builds a no-restricted-imports rule from `{ pattern: why }`. */
const forbid = (rules) => [
  'error',
  {
    patterns: Object.entries(rules).map(([pattern, message]) => ({ group: [pattern], message })),
  },
];

export default tseslint.config(
  { ignores: ['node_modules/', 'cdk.out/', 'web/dist/', '.data/', 'web/src/route-tree.gen.ts', 'coverage/', 'test-results/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  // Import direction: shared → (lambdas | web); lambdas and web never import each other.
  {
    files: ['shared/**'],
    rules: {
      'no-restricted-imports': forbid({
        '#core/*': 'shared/ is used by backend and web alike: it must not import lambdas/.',
        '**/lambdas/**': 'shared/ must not import lambdas/.',
        '**/web/**': 'shared/ must not import web/.',
        '**/scripts/**': 'shared/ must not import scripts/.',
      }),
    },
  },
  {
    files: ['web/**'],
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      'no-restricted-imports': forbid({
        '#core/*': 'The web app must not import backend code.',
        '**/lambdas/**': 'The web app must not import backend code.',
      }),
    },
  },
  {
    files: ['lambdas/core/**'],
    rules: {
      'no-restricted-imports': forbid({
        '**/web/**': 'Backend code must not import the web app.',
        ...Object.fromEntries(endpointGroups.map((group) => [`**/lambdas/${group}/**`, 'core must not depend on an endpoint group.'])),
      }),
    },
  },
  ...endpointGroups.map((group) => ({
    files: [`lambdas/${group}/**`],
    rules: {
      'no-restricted-imports': forbid({
        '**/web/**': 'Backend code must not import the web app.',
        ...Object.fromEntries(
          endpointGroups
            .filter((other) => other !== group)
            .flatMap((other) => [
              [`**/lambdas/${other}/**`, `Endpoint groups never import each other (${group} → ${other}): move shared code to lambdas/core.`],
              [`../${other}/**`, `Endpoint groups never import each other (${group} → ${other}): move shared code to lambdas/core.`],
            ]),
        ),
      }),
    },
  })),
);
