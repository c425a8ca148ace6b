import type { ItemKey, QuerySpec } from '../ports/table-store.ts';
import type { EntityName, ItemKeys, NamedIndexes } from './key-parts.ts';

/**
 * What an entity module declares about itself as data, so docs/data-model.md's entity and access-pattern tables are
 * generated from the code (scripts/docs/data-model.ts) instead of written beside it: the examples call the real key
 * builders with placeholder arguments, so the doc shows exactly what the code writes and reads.
 */

/** The client every example key is built for; the doc shows it as `<c>`. */
export const EXAMPLE_CLIENT = 'example-client';

/** One way an entity's items are read: the named index (or the table), what it serves, and the key it reads. */
export interface AccessPattern {
  /** What is read, e.g. "The tenant's comments, newest first". */
  name: string;
  /** The endpoints and jobs that read it, and how (key conditions, filters). */
  serves: string;
  /** The builders that make its key, as `keys.<entity>.<builder>` paths (a test checks each one exists). */
  builders: readonly string[];
  /** The key it reads, built by those builders with placeholder arguments (an index name names the index Queried). */
  example: () => ItemKey | Pick<QuerySpec, 'index' | 'partition' | 'sort'>;
}

/** One shape of an entity's items (most entities have one; counters and settings have a few). */
export interface ItemShape {
  /** When the item has this shape or these keys, e.g. "while it is Processed"; absent for the one shape. */
  when?: string;
  /** The item's keys, built by the real builder with placeholder arguments. */
  example: () => ItemKey & Partial<ItemKeys>;
}

export interface EntityModel {
  /** The entity tag its items carry (`ENTITY`). */
  entity: EntityName;
  /** What it is, in the doc's words. */
  title: string;
  /** Its module under lambdas/core/store/entities/. */
  module: string;
  /** Its named indexes, each on one of the table's generic indexes. */
  indexes: NamedIndexes;
  items: readonly ItemShape[];
  accessPatterns: readonly AccessPattern[];
}

/**
 * An entity's model, written `/* @__PURE__ *\/ entityModel(() => ({ … }))`. Only the doc's generator reads the models,
 * but an object literal that names `ENTITY.<entity>` is code with effects to the bundler (a property read), so each
 * model stayed in every function's bundle (about 29 KB of a DynamoDB-only function's); built by a pure-annotated call
 * of a function, a model no code reads is dropped.
 */
export function entityModel(describe: () => EntityModel): EntityModel {
  return describe();
}
