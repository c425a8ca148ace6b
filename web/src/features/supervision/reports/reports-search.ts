import { z } from 'zod/mini';
import { optionalDay } from '../../../lib/search-params.ts';

/**
 * URL search of the reports screen: the period (UTC days, both ends included). Apart from the screen because routes
 * validate their search eagerly: this stays small in the main chunk.
 */
export const ReportsSearch = z.object({ from: optionalDay, to: optionalDay });
export type ReportsSearch = z.infer<typeof ReportsSearch>;
