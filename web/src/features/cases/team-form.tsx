import { Button, Group, MultiSelect, Stack, Switch } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { CASE_TEAM_MAX } from '#shared/constants/cases.ts';
import type { Case } from '#shared/contract/entities/cases.ts';
import { formErrorsFor, FormErrorSummary, notifySaved } from '../../components/forms/form-errors.tsx';
import { useCasePeople, useUpdateCase } from './api/cases-api.ts';
import { personOptions } from './case-people.ts';

/**
 * "Change team" on an open case: who may see it, and whether support staff may. Leaving yourself off hands the case
 * over (you no longer see it once saved); the team keeps at least one member.
 */
export function TeamForm({ entry, onDone }: { entry: Case; onDone: () => void }) {
  const { people } = useCasePeople();
  const [team, setTeam] = useState<string[]>(entry.team);
  const [supportMayView, setSupportMayView] = useState(entry.support_may_view);
  const [missing, setMissing] = useState<string[]>([]);
  const update = useUpdateCase();
  // Members not among the first page of people still show, by reference.
  const options = [...personOptions(people), ...team.filter((member) => !people.some((person) => person.user_reference === member)).map((member) => ({ value: member, label: member }))];

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (team.length === 0) {
      setMissing(['body.team: Keep at least one person on the team']);
      return;
    }
    setMissing([]);
    update.mutate(
      { params: { case_ref: entry.case_ref }, body: { team, support_may_view: supportMayView } },
      {
        onSuccess: () => {
          notifySaved('Case team saved.');
          onDone();
        },
      },
    );
  };

  const errors = formErrorsFor({ localLines: missing, error: update.error, paths: { team: 'body.team', support: 'body.support_may_view' } });
  return (
    <form onSubmit={submit} noValidate aria-label="Change the case team">
      <Stack>
        <FormErrorSummary lines={errors.general} />
        <MultiSelect label="Case team" description="Only these people see the case." data={options} value={team} onChange={setTeam} searchable maxValues={CASE_TEAM_MAX} error={errors.field.team} />
        <Switch label="Support staff in support mode may see this case" checked={supportMayView} onChange={(event) => setSupportMayView(event.currentTarget.checked)} />
        <Group justify="flex-end">
          <Button type="submit" loading={update.isPending}>
            Save team
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
