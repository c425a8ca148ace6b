import { Alert, Button, Menu, Modal, Paper, Stack, Title } from '@mantine/core';
import { useState } from 'react';
import type { Production } from '#shared/contract/entities/productions.ts';
import { notifySaved } from '../../components/forms/form-errors.tsx';
import { PageHeader } from '../../components/page/page-header.tsx';
import { formatNumber } from '../../lib/format.ts';
import { useCan } from '../../lib/use-can.ts';
import { useProduction, useProductions } from './api/productions-api.ts';
import { FORM_TITLES, NewProductionForm } from './production-form.tsx';
import type { ProductionFormKind } from './production-request.ts';
import { ProductionTable } from './production-table.tsx';

/**
 * /dashboard/productions: the production log, newest first (cases' productions only for their teams, searches and
 * client copies): what, when, by whom, to whom, which control numbers, progress and the download. "New production"
 * starts a search production or a client copy for those who may produce; the one just started is followed above the
 * log until it is ready.
 */
export function ProductionsScreen() {
  const list = useProductions();
  const [creating, setCreating] = useState<ProductionFormKind | undefined>(undefined);
  const [started, setStarted] = useState<string | undefined>(undefined);
  const onStarted = (production: Production) => {
    setCreating(undefined);
    setStarted(production.production_reference);
    notifySaved(`Production started: ${formatNumber(production.documents_total ?? 0)} documents.`);
  };
  return (
    <>
      <PageHeader
        title="Productions"
        description="Every production of records: of a case, of a search, or a client's copy."
        actions={<NewProductionMenu onChoose={setCreating} />}
      />
      <Stack gap="md">
        {started !== undefined && <StartedProduction reference={started} />}
        {list.isError && <Alert color="red">The production log could not be read.</Alert>}
        <ProductionTable productions={list.items} label="Production log" />
        {list.hasNextPage && (
          <Button variant="default" onClick={() => void list.fetchNextPage()} loading={list.isFetchingNextPage}>
            Show more
          </Button>
        )}
      </Stack>
      <Modal
        opened={creating !== undefined}
        onClose={() => setCreating(undefined)}
        title={creating === undefined ? '' : FORM_TITLES[creating]}
        size="lg"
        closeButtonProps={{ 'aria-label': 'Close' }}
      >
        {creating !== undefined && <NewProductionForm key={creating} kind={creating} onStarted={onStarted} />}
      </Modal>
    </>
  );
}

/**
 * "New production": from a search (custodians are picked from the device users, so the role must list them) or a
 * client copy. Offered only to a role that may produce: no button the server would refuse.
 */
function NewProductionMenu({ onChoose }: { onChoose: (kind: ProductionFormKind) => void }) {
  const canCreate = useCan('productions:Create');
  const canPickCustodians = useCan('deviceUsers:List');
  if (!canCreate.allowed) return null;
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <Button data-requires-action={canCreate.action}>New production</Button>
      </Menu.Target>
      <Menu.Dropdown>
        {canPickCustodians.allowed && <Menu.Item onClick={() => onChoose('Search')}>From a search</Menu.Item>}
        <Menu.Item onClick={() => onChoose('ClientCopy')}>Client copy</Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}

/** The production just started, followed as it runs: its progress, then its download. */
function StartedProduction({ reference }: { reference: string }) {
  const production = useProduction(reference);
  if (production.data === undefined) return null;
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="started-production-title">
      <Title order={2} size="h4" mb="sm" id="started-production-title">
        Production started
      </Title>
      <ProductionTable productions={[production.data]} label="Production started" />
    </Paper>
  );
}
