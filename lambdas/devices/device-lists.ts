import type { Dependencies } from '#core/dependencies.ts';
import type { ItemFilter } from '#core/store/paging.ts';

/** What the devices-group services use. */
export type DevicesDependencies = Pick<Dependencies, 'table' | 'clock' | 'cursors'>;

/** Case-insensitive prefix search over the named text attributes (the contract's `search`). */
export function searchFilter(search: string | undefined, attributes: readonly string[]): ItemFilter | undefined {
  if (search === undefined) return undefined;
  const needle = search.toLowerCase();
  return (item) => attributes.some((name) => typeof item[name] === 'string' && (item[name] as string).toLowerCase().startsWith(needle));
}
