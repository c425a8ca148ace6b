import type { Dependencies } from '#core/dependencies.ts';
import type { QuerySpec, TableItem } from '#core/ports/table-store.ts';

/** Every item of a Query, following its pages (a match window holds a handful of items). */
export async function queryAll(deps: Pick<Dependencies, 'table'>, spec: QuerySpec): Promise<TableItem[]> {
  const items: TableItem[] = [];
  let startKey: Record<string, string> | undefined;
  do {
    const page = await deps.table.query({ ...spec, ...(startKey === undefined ? {} : { startKey }) });
    items.push(...page.items);
    startKey = page.lastKey;
  } while (startKey !== undefined);
  return items;
}
