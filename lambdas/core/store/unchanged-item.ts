import type { TableItem, WriteCondition } from '../ports/table-store.ts';
import { TABLE_KEYS } from './table-definition.ts';

/**
 * A write condition that holds only while the stored item is still exactly the one read: it exists, every attribute
 * it had still has the value read, and each of `mayAppear` it lacked is still absent. A write that keeps the version
 * it replaces (lambdas/audit/versions/versioned-write.ts) uses it, so the version kept is the item as it really was
 * when replaced, even where other writers change attributes the record's `updated_at` does not follow (a group's
 * stats counters, a legal hold's walk progress).
 */
export function unchangedItem(stored: TableItem, mayAppear: readonly string[] = []): WriteCondition {
  const names: Record<string, string> = { '#uipk': TABLE_KEYS.partitionKey };
  const values: Record<string, unknown> = {};
  const clauses = ['attribute_exists(#uipk)'];
  let index = 0;
  for (const [attribute, value] of Object.entries(stored)) {
    if (attribute === TABLE_KEYS.partitionKey || attribute === TABLE_KEYS.sortKey || value === undefined) continue;
    names[`#ui${index}`] = attribute;
    // A stored null is DynamoDB's NULL type, which `=` does not compare: its type says it is still null.
    values[`:ui${index}`] = value === null ? 'NULL' : value;
    clauses.push(value === null ? `attribute_type(#ui${index}, :ui${index})` : `#ui${index} = :ui${index}`);
    index += 1;
  }
  for (const attribute of new Set(mayAppear)) {
    if (attribute in stored) continue;
    names[`#ui${index}`] = attribute;
    clauses.push(`attribute_not_exists(#ui${index})`);
    index += 1;
  }
  return { kind: 'expression', expression: clauses.join(' AND '), names, ...(Object.keys(values).length === 0 ? {} : { values }) };
}
