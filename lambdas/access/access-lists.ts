import type { Dependencies } from '#core/dependencies.ts';

/** What the access services use: the table, the clock (updated_at) and the cursor codec (lists, core/store/paging.ts). */
export type AccessDependencies = Pick<Dependencies, 'table' | 'clock' | 'cursors'>;
