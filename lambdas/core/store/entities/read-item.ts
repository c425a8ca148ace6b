import * as z from 'zod';
import { InternalError } from '../../errors.ts';
import type { TableItem } from '../../ports/table-store.ts';

/**
 * What every entity module's `read<Entity>` does: parse a stored item with the entity's item schema. A stored item
 * that does not match is our bug, never the caller's, so it is an InternalError (a 500 that shows nothing) naming the
 * entity and one `path: message` per problem for the log. The schemas are plain objects, so the keys, index keys and
 * entity tag are dropped and only the entity's own attributes come back. (Partial: a sum of counter items, which has no
 * key, reads the same way.)
 */
export function readItem<S extends z.ZodType>(entity: string, schema: S, item: Partial<TableItem>): z.infer<S> {
  const parsed = schema.safeParse(item);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) => `${issue.path.length === 0 ? '(item)' : issue.path.join('.')}: ${issue.message}`);
  throw new InternalError(`Stored ${entity} item ${item.pk} / ${item.sk} is malformed: ${problems.join('; ')}`);
}

/**
 * What a stored item claims to be, or undefined when it does not read as one: for the few readers that must go on past
 * a damaged item (the audit verifier reports it, the activity list leaves it out with a log line).
 */
export function claimItem<S extends z.ZodType>(schema: S, item: TableItem): z.infer<S> | undefined {
  const parsed = schema.safeParse(item);
  return parsed.success ? parsed.data : undefined;
}

/**
 * An item that keeps counters as flat number attributes (changed with atomic ADD, absent until first counted) beside
 * its labels: the labels read with `labels`, and each attribute `counterName` names a counter of, by that name. A
 * counter that is not a number fails the read like any malformed attribute, naming it.
 */
export function readCounterItem<S extends z.ZodType>(
  entity: string,
  labels: S,
  item: Partial<TableItem>,
  counterName: (attribute: string) => string | undefined,
): z.infer<S> & { counters: Record<string, number> } {
  const counters: Record<string, number> = {};
  const malformed: string[] = [];
  for (const [attribute, value] of Object.entries(item)) {
    const name = counterName(attribute);
    if (name === undefined) continue;
    if (typeof value === 'number') counters[name] = value;
    else malformed.push(attribute);
  }
  const refused = z.object(Object.fromEntries(malformed.map((attribute) => [attribute, z.number()])));
  return { ...readItem(entity, labels.and(refused), item), counters };
}
