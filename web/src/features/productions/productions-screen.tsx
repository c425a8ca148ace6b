import { Alert, Button, Stack } from '@mantine/core';
import { PageHeader } from '../../components/page/page-header.tsx';
import { useProductions } from './api/productions-api.ts';
import { ProductionTable } from './production-table.tsx';

/**
 * /dashboard/productions: the production log, newest first (cases' productions only for their teams, searches and
 * client copies): what, when, by whom, to whom, which control numbers, progress and the download.
 */
export function ProductionsScreen() {
  const list = useProductions();
  return (
    <>
      <PageHeader title="Productions" description="Every production of records: of a case, of a search, or a client's copy." />
      <Stack gap="md">
        {list.isError && <Alert color="red">The production log could not be read.</Alert>}
        <ProductionTable productions={list.items} label="Production log" />
        {list.hasNextPage && (
          <Button variant="default" onClick={() => void list.fetchNextPage()} loading={list.isFetchingNextPage}>
            Show more
          </Button>
        )}
      </Stack>
    </>
  );
}
