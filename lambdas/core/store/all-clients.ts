import type { TableStore } from '../ports/table-store.ts';
import { keys } from './keys.ts';
import { eachPage } from './paging.ts';

/**
 * Every client of the platform, for the jobs that visit each tenant in turn: a Query on the provider's account list
 * (`keys.account.listAll()`), page by page, never a Scan.
 */
export async function* allClients(table: Pick<TableStore, 'query'>): AsyncGenerator<string> {
  for await (const page of eachPage(table, keys.account.listAll(), 500)) {
    for (const item of page) if (typeof item.client === 'string') yield item.client;
  }
}
