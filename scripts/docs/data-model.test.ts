import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ENTITY } from '../../lambdas/core/store/key-parts.ts';
import { keys } from '../../lambdas/core/store/keys.ts';
import { ENTITY_MODELS } from '../../lambdas/core/store/entity-models.ts';
import { regenerate, renderAccessPatternTable, renderEntityTable, SECTIONS } from './render-data-model.ts';

const DOC = new URL('../../docs/data-model.md', import.meta.url);

describe('docs/data-model.md', () => {
  it('shows the entity and access-pattern tables the entity modules generate (run `npm run docs:data-model` when stale)', () => {
    const doc = readFileSync(DOC, 'utf8');
    expect(regenerate(doc, ENTITY_MODELS)).toBe(doc);
    expect(doc).toContain(SECTIONS.entities.begin);
    expect(doc).toContain(SECTIONS.accessPatterns.begin);
  });

  it('has a model for every entity tag', () => {
    const modelled = new Set(ENTITY_MODELS.map((model) => model.entity));
    expect(Object.values(ENTITY).filter((entity) => !modelled.has(entity))).toEqual([]);
  });

  it('names only builders that exist', () => {
    const builders: Record<string, Record<string, unknown>> = keys;
    const missing = ENTITY_MODELS.flatMap((model) => model.accessPatterns.flatMap((pattern) => pattern.builders)).filter((path) => {
      const [root, entity, builder] = path.split('.');
      return root !== 'keys' || entity === undefined || builder === undefined || builders[entity]?.[builder] === undefined;
    });
    expect(missing).toEqual([]);
  });

  it('shows keys as the builders write them, the client as <c> and each index by the name its entity gives it', () => {
    const entities = renderEntityTable(ENTITY_MODELS);
    expect(entities).toContain('| `C#<c>#PAYLOAD#<ref>` | `AUDIT#<time>#<ulid>` | `byPerson` (gsi1): `C#<c>#PERSON#<portal_user>#RECEIPTS` / `<time>#<ulid>`');
    expect(entities).toContain('`byPerson` (gsi2): `C#<c>#PERSON#<raised_by>#COMMENTS`');
    expect(entities).toContain('`byPerson` (gsi3): `C#<c>#PERSON#<user_id>#ACTIVITY`');
    expect(entities).not.toContain('example-client');
    const patterns = renderAccessPatternTable(ENTITY_MODELS);
    expect(patterns).toContain('Query `byTenantTime` (gsi1) `C#<c>#COMMENTS`');
    expect(patterns).toContain('Query table `C#<c>#PAYLOAD#<ref>`, `begins_with AUDIT#`');
  });

  it('keeps the hand-written prose around the generated tables', () => {
    const doc = `intro\n${SECTIONS.entities.begin}\nold\n${SECTIONS.entities.end}\nmiddle\n${SECTIONS.accessPatterns.begin}\n${SECTIONS.accessPatterns.end}\nend\n`;
    const regenerated = regenerate(doc, ENTITY_MODELS);
    expect(regenerated.startsWith(`intro\n${SECTIONS.entities.begin}\n\n| Entity`)).toBe(true);
    expect(regenerated).toContain(`|\n\n${SECTIONS.entities.end}\nmiddle\n`);
    expect(regenerated.endsWith(`|\n\n${SECTIONS.accessPatterns.end}\nend\n`)).toBe(true);
    expect(regenerated).not.toContain('\nold\n');
  });

  it('refuses a doc without its markers', () => {
    expect(() => regenerate('no markers here', ENTITY_MODELS)).toThrow(/markers/);
  });
});
