import { Button, Checkbox, Group, MultiSelect, Stack, Switch, TagsInput, Text, Textarea, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useState, type FormEvent } from 'react';
import { CASE_COUNTERPARTY_NUMBERS_MAX, CASE_CUSTODIANS_MAX, CASE_TEAM_MAX } from '#shared/constants/cases.ts';
import { PAYLOAD_TYPES, type PayloadType } from '#shared/constants/payloads.ts';
import type { Case } from '#shared/contract/entities/cases.ts';
import { DateRangeFilter } from '../../components/filters/date-range-filter.tsx';
import { formErrorsFor, FormErrorSummary, notifySaved } from '../../components/forms/form-errors.tsx';
import { PAYLOAD_TYPE_LABELS } from '../../lib/labels.ts';
import { useSession } from '../../lib/session/session-context.tsx';
import { useDeviceUserSearch } from './api/search-device-users.ts';
import { useCasePeople, useCreateCase } from './api/cases-api.ts';
import { periodBound, personOptions } from './case-people.ts';

/** The contract paths of the form's fields: the server's refusals land under their field. */
const PATHS = {
  title: 'body.title',
  description: 'body.description',
  custodians: 'body.custodians',
  deviceUsers: 'body.custodians.device_users',
  portalUsers: 'body.custodians.portal_users',
  numbers: 'body.counterparty_numbers',
  period: 'body.period',
  from: 'body.period.from',
  to: 'body.period.to',
  types: 'body.payload_types',
  team: 'body.team',
} as const;

/**
 * "New case": title and description, custodians picked by name (device users searched, portal users from the
 * tenant's list), counterparty numbers, the period as days, payload types, the team picked by name (the person
 * opening it joins anyway), whether support staff may see it, and collect and hold.
 */
export function NewCaseForm({ onDone }: { onDone: (opened: Case) => void }) {
  const { state } = useSession();
  const me = state.user?.reference;
  const [title, setTitle] = useState('');
  const [description, setDescription] = useState('');
  const [deviceUsers, setDeviceUsers] = useState<string[]>([]);
  const [portalUsers, setPortalUsers] = useState<string[]>([]);
  const [numbers, setNumbers] = useState<string[]>([]);
  const [period, setPeriod] = useState<{ from: string | undefined; to: string | undefined }>({ from: undefined, to: undefined });
  const [types, setTypes] = useState<PayloadType[]>([...PAYLOAD_TYPES]);
  const [team, setTeam] = useState<string[]>([]);
  const [supportMayView, setSupportMayView] = useState(false);
  const [collectAndHold, setCollectAndHold] = useState(true);
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), 300);
  const users = useDeviceUserSearch(debounced);
  const { people } = useCasePeople();
  const create = useCreateCase();
  const [missing, setMissing] = useState<string[]>([]);

  const found = (users.data && 'data' in users.data ? users.data.data : []).map((user) => {
    const name = [user.first_name, user.surname].filter(Boolean).join(' ');
    return { value: user.device_user_reference, label: name === '' ? user.device_user_reference : `${name} (${user.device_user_reference})` };
  });
  // The people already picked stay among the options while the search moves on, so the field still shows them.
  const deviceOptions = [...found, ...deviceUsers.filter((user) => !found.some((option) => option.value === user)).map((user) => ({ value: user, label: user }))];
  const portalOptions = personOptions(people);
  const teamOptions = portalOptions.filter((option) => option.value !== me);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const lines: string[] = [];
    if (title.trim() === '') lines.push(`${PATHS.title}: Give the case a title`);
    if (deviceUsers.length + portalUsers.length === 0) lines.push(`${PATHS.custodians}: Pick at least one device user or portal user`);
    if (period.from === undefined) lines.push(`${PATHS.from}: Choose the first day`);
    if (period.to === undefined) lines.push(`${PATHS.to}: Choose the last day`);
    if (types.length === 0) lines.push(`${PATHS.types}: Choose at least one payload type`);
    setMissing(lines);
    if (lines.length > 0 || period.from === undefined || period.to === undefined) return;
    create.mutate(
      {
        body: {
          title: title.trim(),
          description,
          custodians: { device_users: deviceUsers, portal_users: portalUsers },
          counterparty_numbers: numbers,
          period: { from: periodBound(period.from, 'from'), to: periodBound(period.to, 'to') },
          payload_types: types,
          team,
          support_may_view: supportMayView,
          collect_and_hold: collectAndHold,
        },
      },
      {
        onSuccess: (opened) => {
          notifySaved(`Case “${opened.title}” opened.`);
          onDone(opened);
        },
      },
    );
  };

  const errors = formErrorsFor({ localLines: missing, error: create.error, paths: PATHS });
  return (
    <form onSubmit={submit} noValidate aria-label="New case">
      <Stack>
        <FormErrorSummary lines={errors.general} />
        <TextInput label="Title" value={title} onChange={(event) => setTitle(event.currentTarget.value)} maxLength={200} error={errors.field.title} required />
        <Textarea label="Description" value={description} onChange={(event) => setDescription(event.currentTarget.value)} maxLength={4000} autosize minRows={2} error={errors.field.description} />
        <MultiSelect
          label="Custodian device users"
          description="Whose recordings the case covers. Type two letters to search by name, e-mail or reference."
          data={deviceOptions}
          value={deviceUsers}
          onChange={setDeviceUsers}
          searchable
          searchValue={search}
          onSearchChange={setSearch}
          filter={({ options: all }) => all}
          nothingFoundMessage={users.isFetching ? 'Searching…' : 'No device user matches'}
          maxValues={CASE_CUSTODIANS_MAX}
          error={errors.field.deviceUsers ?? errors.field.custodians}
          clearable
        />
        <MultiSelect
          label="Custodian portal users"
          description="People of the portal whose own records (comments, receipts) the case covers."
          data={portalOptions}
          value={portalUsers}
          onChange={setPortalUsers}
          searchable
          maxValues={CASE_CUSTODIANS_MAX}
          error={errors.field.portalUsers}
          clearable
        />
        <TagsInput
          label="Counterparty numbers"
          description="Numbers the other side called or wrote from, e.g. +44 20 7946 0000 (press Enter after each)."
          value={numbers}
          onChange={setNumbers}
          maxTags={CASE_COUNTERPARTY_NUMBERS_MAX}
          error={errors.field.numbers}
          clearable
        />
        <Group grow align="flex-start">
          <DateRangeFilter from={period.from} to={period.to} onChange={setPeriod} fromLabel="Period from" toLabel="Period to" />
        </Group>
        {(errors.field.from ?? errors.field.to ?? errors.field.period) !== undefined && (
          <Text size="sm" c="red" role="alert">
            Period: {errors.field.from ?? errors.field.to ?? errors.field.period}
          </Text>
        )}
        <Checkbox.Group label="Payload types" value={types} onChange={(value) => setTypes(value as PayloadType[])} error={errors.field.types}>
          <Group gap="md" mt={4}>
            {PAYLOAD_TYPES.map((type) => (
              <Checkbox key={type} value={type} label={PAYLOAD_TYPE_LABELS[type]} />
            ))}
          </Group>
        </Checkbox.Group>
        <MultiSelect
          label="Case team"
          description="Who else may see the case. You are on it. Nobody outside the team sees it, tenant administrators included."
          data={teamOptions}
          value={team}
          onChange={setTeam}
          searchable
          maxValues={CASE_TEAM_MAX - 1}
          error={errors.field.team}
          clearable
        />
        <Switch label="Support staff in support mode may see this case" checked={supportMayView} onChange={(event) => setSupportMayView(event.currentTarget.checked)} />
        <Switch
          label="Collect and hold: place a legal hold on each custodian device user"
          description="Closing the case releases only the holds it placed (each release waits for a second approver)."
          checked={collectAndHold}
          onChange={(event) => setCollectAndHold(event.currentTarget.checked)}
        />
        <Group justify="flex-end">
          <Button type="submit" loading={create.isPending}>
            Open case
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
