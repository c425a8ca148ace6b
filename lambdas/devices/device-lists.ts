import type { Dependencies } from '#core/dependencies.ts';
import type { TableItem } from '#core/ports/table-store.ts';
import type { ItemFilter } from '#core/store/paging.ts';

/** What the devices-group services use. */
export type DevicesDependencies = Pick<Dependencies, 'table' | 'clock' | 'cursors'>;

/** "First Surname", so a search for a person's whole name ("Bram Baker") finds them as well as either part does. */
export function fullName(record: { first_name?: string | undefined; surname?: string | undefined }): string | undefined {
  const name = [record.first_name, record.surname].filter((part) => part !== undefined && part !== '').join(' ');
  return name === '' ? undefined : name;
}

/**
 * Case-insensitive prefix search (the contract's `search`) over the text fields `fieldsOf` picks from each record,
 * read with its entity module (`read`).
 */
export function searchFilter<T>(
  search: string | undefined,
  read: (item: TableItem) => T,
  fieldsOf: (record: T) => ReadonlyArray<string | undefined>,
): ItemFilter | undefined {
  if (search === undefined) return undefined;
  const needle = search.toLowerCase();
  return (item) => fieldsOf(read(item)).some((field) => field?.toLowerCase().startsWith(needle) === true);
}
