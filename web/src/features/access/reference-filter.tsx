import { Box } from '@mantine/core';
import { DebouncedTextFilter } from '../../components/filters/filter-inputs.tsx';
import { compactQuery } from '../../lib/search-params.ts';
import type { ReferenceSearch, ReferenceSearchProps } from './reference-search.ts';

/** The list query for the search (an emptied filter is left out: the API refuses `starts_with=`). */
export const referenceQuery = (search: ReferenceSearch) => compactQuery({ starts_with: search.starts_with });

/** The empty-list text: what the filter left out, or that there is nothing yet. */
export const emptyText = (search: ReferenceSearch, subject: string, nothingYet: string) =>
  search.starts_with === undefined ? nothingYet : `No ${subject} start with “${search.starts_with}”.`;

/** "<Label> starts with": references are case-sensitive, as the store keeps them. */
export function ReferenceFilter({ label, search, onSearch }: ReferenceSearchProps & { label: string }) {
  return (
    <Box component="form" role="search" aria-label={`Filter ${label.toLowerCase()}s`} maw={360} mb="md" onSubmit={(event) => event.preventDefault()}>
      <DebouncedTextFilter label={`${label} starts with`} value={search.starts_with} onApply={(value) => onSearch({ ...search, starts_with: value })} />
    </Box>
  );
}
