import { readFileSync, writeFileSync } from 'node:fs';
import { ENTITY_MODELS } from '../../lambdas/core/store/entity-models.ts';
import { regenerate } from './render-data-model.ts';

/** `npm run docs:data-model`: rewrite the generated tables of docs/data-model.md from the entity modules. */
const path = new URL('../../docs/data-model.md', import.meta.url);
const before = readFileSync(path, 'utf8');
const after = regenerate(before, ENTITY_MODELS);
if (after === before) {
  console.log('docs/data-model.md is up to date');
} else {
  writeFileSync(path, after);
  console.log('docs/data-model.md: entity and access-pattern tables regenerated');
}
