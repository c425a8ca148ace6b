import type { Dependencies } from '#core/dependencies.ts';
import type { TableItem } from '#core/ports/table-store.ts';
import { readProduction } from '#core/store/entities/production.ts';

/*
 * A destroyed case's download packages (record-changes/case.ts). Apart from the case's own rules because only the
 * retention job's bulk purge removes objects: the rules are read by every function that writes a retained record,
 * and most of those are never given the blob store.
 */

/** The objects a production delivered as a download left in the processed bucket (none for a transfer). */
function downloadObjectsOf(client: string, item: TableItem): string[] {
  const production = readProduction(item);
  if (production.destination.type !== 'Download') return [];
  const prefix = `productions/${client}/${production.production_reference}/`;
  const named = (production.delivered_files ?? []).map((name) => `${prefix}${name}`);
  return [...new Set([...named, ...(production.download_key === undefined ? [] : [production.download_key])])];
}

/**
 * Removes the download packages of these productions; answers the productions whose packages are all gone (only those
 * may leave the table: a production item is what names its objects, so it stays until they are removed).
 */
export async function removeProductionObjects(deps: Pick<Dependencies, 'blobs' | 'logger'>, client: string, items: readonly TableItem[]): Promise<TableItem[]> {
  const done: TableItem[] = [];
  for (const item of items) {
    try {
      await Promise.all(downloadObjectsOf(client, item).map((key) => deps.blobs.destroy('processed', key)));
      done.push(item);
    } catch (error) {
      deps.logger.warn('retention: a destroyed case production\'s package not removed yet', { client, pk: item.pk, sk: item.sk, error: String(error) });
    }
  }
  return done;
}
