import { Button, Group, Paper, Stack, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { ErrorLines, errorLinesOf } from '../../components/data/error-lines.tsx';
import { notifySaved } from '../../components/forms/form-errors.tsx';
import { useCan } from '../../lib/use-can.ts';
import { useCreateCaseProduction, useProductions } from './api/productions-api.ts';
import { DestinationSelect } from './destination-select.tsx';
import { destinationOf, DOWNLOAD_TARGET } from './production-request.ts';
import { ProductionTable } from './production-table.tsx';

/**
 * A case's Productions panel (composed into the case page by its route): a new production (control-number prefix and
 * destination) for those who may produce, and the case's productions with their progress, control numbers, who
 * started them, where they went and, once ready, the download. Shown to those who may read the log; a case off the
 * caller's team answers its own 404 on the case page, so the panel shows nothing then.
 */
export function CaseProductions({ caseRef }: { caseRef: string }) {
  const canList = useCan('productions:List');
  const canCreate = useCan('productions:Create');
  const list = useProductions(caseRef);
  if (!canList.allowed || list.isError) return null;
  return (
    <Paper withBorder p="md" mt="lg" aria-labelledby="case-productions-title" component="section">
      <Title order={3} size="h4" mb="sm" id="case-productions-title">
        Productions
      </Title>
      <Stack gap="md">
        {canCreate.allowed && <NewProduction caseRef={caseRef} />}
        <ProductionTable productions={list.items} label="Productions of the case" />
      </Stack>
    </Paper>
  );
}

function NewProduction({ caseRef }: { caseRef: string }) {
  const create = useCreateCaseProduction();
  const [prefix, setPrefix] = useState('');
  const [target, setTarget] = useState<string>(DOWNLOAD_TARGET);
  const destination = destinationOf(target);
  const submit = () =>
    create.mutate(
      { params: { case_ref: caseRef }, body: { control_prefix: prefix, destination } },
      { onSuccess: (started) => notifySaved(`Production started: ${started.documents_total ?? 0} documents.`) },
    );
  return (
    <Stack
      gap="xs"
      component="form"
      aria-label="New production"
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <Group align="flex-end">
        <TextInput label="Control-number prefix" description="Letters, digits, _ and -" value={prefix} onChange={(event) => setPrefix(event.currentTarget.value)} maxLength={20} required />
        <DestinationSelect value={target} onChange={setTarget} />
        <Button type="submit" loading={create.isPending} disabled={prefix === ''}>
          Produce
        </Button>
      </Group>
      {create.isError && <ErrorLines title="The production was not started" lines={errorLinesOf(create.error)} />}
    </Stack>
  );
}
