// @ts-check
import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import boundaries from './lint/lambda-boundaries.js';
import webLayers from './lint/web-layers.js';
import reactHooks from 'eslint-plugin-react-hooks';

/**
 * Area folders under lambdas/ (everything but core and jobs). An area holds its domain code and, where it has
 * endpoints, the function that serves them (`handler.ts`, `*routes.ts`).
 */
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
  // Portal layers: lib and components → features → routes, app is platform, no feature imports another
  // (lint/web-layers.js); hooks are called unconditionally and name every value they read.
  {
    files: ['web/src/**/*.{ts,tsx}'],
    plugins: { 'verity-web': webLayers, 'react-hooks': reactHooks },
    rules: {
      'verity-web/web-layers': 'error',
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },
  {
    files: ['lambdas/core/**'],
    rules: {
      'no-restricted-imports': forbid({
        '**/web/**': 'Backend code must not import the web app.',
        '**/handler.ts': 'core must not import a function entry.',
        '**/*routes.ts': 'core must not import an endpoint group\'s routes.',
      }),
    },
  },
  // Core knows no area; an area reaches another only through its public module (lint/lambda-boundaries.js).
  {
    files: ['lambdas/**/*.ts'],
    plugins: { verity: boundaries },
    rules: { 'verity/lambda-boundaries': 'error' },
  },
  // Areas share their domain code, never their function entries: a function bundles its own routes only.
  ...endpointGroups.map((group) => ({
    files: [`lambdas/${group}/**`],
    rules: {
      'no-restricted-imports': forbid({
        '**/web/**': 'Backend code must not import the web app.',
        ...Object.fromEntries(
          endpointGroups
            .filter((other) => other !== group)
            .flatMap((other) => [`../${other}/**/handler.ts`, `../${other}/**/*routes.ts`, `**/lambdas/${other}/**/handler.ts`, `**/lambdas/${other}/**/*routes.ts`])
            .map((pattern) => [pattern, `Areas never import another function's entry or routes (${group}): import the domain module itself.`]),
        ),
      }),
    },
  })),
);
