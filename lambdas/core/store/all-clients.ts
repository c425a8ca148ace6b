import type { TableStore } from '../ports/table-store.ts';
import { keys } from './keys.ts';

/**
 * Every client of the platform, for the jobs that visit each tenant in turn: a Query on the provider's account list
 * (`keys.account.listAll()`), page by page, never a Scan.
 */
export async function* allClients(table: Pick<TableStore, 'query'>): AsyncGenerator<string> {
  let startKey: Record<string, string> | undefined;
  do {
    const page = await table.query({ ...keys.account.listAll(), limit: 500, ...(startKey ? { startKey } : {}) });
    for (const item of page.items) if (typeof item.client === 'string') yield item.client;
    startKey = page.lastKey;
  } while (startKey !== undefined);
}
