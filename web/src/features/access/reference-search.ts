import { z } from 'zod/mini';
import { optionalText } from '../../lib/search-params.ts';

/**
 * URL search of the roles, groups and tags lists: the one filter their endpoints take. Apart from the filter's
 * component (reference-filter.tsx) because routes validate their search eagerly: this stays small in the main chunk.
 */
export const ReferenceSearch = z.object({ starts_with: optionalText() });
export type ReferenceSearch = z.infer<typeof ReferenceSearch>;

/** What a reference-filtered list screen is given by its route: the search in the URL, and how to change it. */
export interface ReferenceSearchProps {
  search: ReferenceSearch;
  onSearch: (next: ReferenceSearch) => void;
}
