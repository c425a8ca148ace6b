import type { ItemKey, QuerySpec } from '../../lambdas/core/ports/table-store.ts';
import { EXAMPLE_CLIENT, type AccessPattern, type EntityModel } from '../../lambdas/core/store/entity-model.ts';
import { TABLE_KEYS, type IndexName } from '../../lambdas/core/store/table-definition.ts';

/**
 * The generated parts of docs/data-model.md: the entity table and the access-pattern table, rendered from the entity
 * modules' models (their examples call the real key builders), and written between markers so the prose around them
 * stays hand-written. `npm run docs:data-model` writes them; scripts/docs/data-model.test.ts fails when they are stale.
 */

export const SECTIONS = {
  entities: { begin: '<!-- generated:entities (npm run docs:data-model) -->', end: '<!-- /generated:entities -->' },
  accessPatterns: { begin: '<!-- generated:access-patterns (npm run docs:data-model) -->', end: '<!-- /generated:access-patterns -->' },
} as const;

/** A key value as the doc shows it: the example client as `<c>`. */
const shown = (value: string) => `\`${value.split(EXAMPLE_CLIENT).join('<c>')}\``;

/** The named index an entity maps onto a generic index, as `name` (generic). */
function indexLabel(model: EntityModel, index: IndexName): string {
  const named = Object.entries(model.indexes).find(([, generic]) => generic === index);
  if (named === undefined) throw new Error(`${model.entity} uses index ${index} without naming it`);
  return named[0] === index ? `\`${index}\`` : `\`${named[0]}\` (${index})`;
}

function indexKeysOf(model: EntityModel, item: ReturnType<EntityModel['items'][number]['example']>): string {
  const placed = TABLE_KEYS.indexes.flatMap((index) => {
    const partition = item[index.partitionKey];
    const sort = item[index.sortKey];
    if (partition === undefined || sort === undefined) return [];
    return [`${indexLabel(model, index.name)}: ${shown(partition)} / ${shown(sort)}`];
  });
  return placed.length === 0 ? 'none' : placed.join('; ');
}

export function renderEntityTable(models: readonly EntityModel[]): string {
  const rows = models.flatMap((model) =>
    model.items.map((shape) => {
      const item = shape.example();
      const title = model.items.length > 1 && shape.when !== undefined ? `${model.title}: ${shape.when}` : model.title;
      const when = model.items.length === 1 && shape.when !== undefined ? ` (${shape.when})` : '';
      return `| ${title} (\`${model.entity}\`) | ${shown(item.pk)} | ${shown(item.sk)} | ${indexKeysOf(model, item)}${when} | \`entities/${model.module}\` |`;
    }),
  );
  return ['| Entity (`entity`) | `pk` | `sk` | Index keys (named index (generic index): partition / sort) | Module |', '|---|---|---|---|---|', ...rows].join('\n');
}

type Read = ReturnType<AccessPattern['example']>;

const isItemKey = (read: Read): read is ItemKey => 'pk' in read && 'sk' in read;

function sortOf(sort: QuerySpec['sort']): string {
  if (sort === undefined) return '';
  if ('beginsWith' in sort && sort.beginsWith !== undefined) return `, \`begins_with ${sort.beginsWith}\``;
  if ('between' in sort && sort.between !== undefined) return `, between ${shown(sort.between[0])} and ${shown(sort.between[1])}`;
  return `, ${JSON.stringify(sort)}`;
}

function readOf(model: EntityModel, read: Read): string {
  if (isItemKey(read)) return `GetItem ${shown(read.pk)} / ${shown(read.sk)}`;
  const on = read.index === undefined ? 'table' : indexLabel(model, read.index);
  return `Query ${on} ${shown(read.partition)}${sortOf(read.sort)}`;
}

export function renderAccessPatternTable(models: readonly EntityModel[]): string {
  const rows = models.flatMap((model) =>
    model.accessPatterns.map(
      (pattern) =>
        `| ${pattern.name} (\`${model.entity}\`) | ${pattern.serves} | ${readOf(model, pattern.example())} | ${pattern.builders.map((builder) => `\`${builder}\``).join(', ')} |`,
    ),
  );
  return ['| Access pattern | Serves | Reads (named index (generic index), key) | Builders |', '|---|---|---|---|', ...rows].join('\n');
}

/** `doc` with both generated sections replaced by what the models say now. */
export function regenerate(doc: string, models: readonly EntityModel[]): string {
  return replaceSection(replaceSection(doc, SECTIONS.entities, renderEntityTable(models)), SECTIONS.accessPatterns, renderAccessPatternTable(models));
}

function replaceSection(doc: string, markers: { begin: string; end: string }, content: string): string {
  const start = doc.indexOf(markers.begin);
  const end = doc.indexOf(markers.end);
  if (start < 0 || end < start) throw new Error(`docs/data-model.md lacks the markers ${markers.begin} … ${markers.end}`);
  return `${doc.slice(0, start + markers.begin.length)}\n\n${content}\n\n${doc.slice(end)}`;
}
