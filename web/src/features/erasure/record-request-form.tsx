import { Button, Group, Select, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useState, type FormEvent } from 'react';
import {
  ERASURE_CHANNELS,
  ERASURE_NOTE_MAX,
  ERASURE_REPRESENTATIVE_MAX,
  type ErasureChannel,
  type ErasureRequest,
} from '#shared/contract/entities/erasure-requests.ts';
import { DayField } from '../../components/filters/date-range-filter.tsx';
import { formErrorsFor, FormErrorSummary, notifySaved } from '../../components/forms/form-errors.tsx';
import { SegmentedField } from '../../components/forms/form-fields.tsx';
import { useCreateErasureRequest, useDeviceUserSearch } from './api/erasure-api.ts';
import { deviceUserName, ERASURE_CHANNEL_LABELS, personWords } from './erasure-model.ts';
import { receivedAtOf, todayUtc } from './received-day.ts';

/** The contract paths of the form's fields: the server's refusals land under their field. */
const PATHS = {
  person: 'body.device_user_reference',
  requester: 'body.requester',
  representative: 'body.requester.name',
  received: 'body.received_at',
  channel: 'body.channel',
  note: 'body.note',
} as const;

type Asker = 'DataSubject' | 'Representative';

/**
 * "Record a request": the person (a device user picked by name, offboarded people included), who asked (they or a
 * representative by name), the day it was received, by which channel, and a note. Recording starts the decision.
 */
export function RecordRequestForm({ onDone }: { onDone: (recorded: ErasureRequest) => void }) {
  const [person, setPerson] = useState<string | null>(null);
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), 300);
  const users = useDeviceUserSearch(debounced);
  const [asker, setAsker] = useState<Asker>('DataSubject');
  const [representative, setRepresentative] = useState('');
  const [received, setReceived] = useState<string | undefined>(todayUtc());
  const [channel, setChannel] = useState<ErasureChannel | null>(null);
  const [note, setNote] = useState('');
  const [missing, setMissing] = useState<string[]>([]);
  const create = useCreateErasureRequest();
  const [picked, setPicked] = useState<{ value: string; label: string } | undefined>(undefined);

  const found = (users.data && 'data' in users.data ? users.data.data : []).map((user) => ({
    value: user.device_user_reference,
    label: `${personWords(user.device_user_reference, deviceUserName(user))}${user.is_active ? '' : ', offboarded'}`,
  }));
  // The person picked stays among the options while the search moves on, so the field still shows them.
  const options = picked !== undefined && !found.some((option) => option.value === picked.value) ? [picked, ...found] : found;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const lines: string[] = [];
    if (person === null) lines.push(`${PATHS.person}: Choose the person the request is about`);
    if (asker === 'Representative' && representative.trim() === '') lines.push(`${PATHS.representative}: Give the representative's name`);
    if (received === undefined) lines.push(`${PATHS.received}: Choose the day the request was received`);
    if (channel === null) lines.push(`${PATHS.channel}: Choose how the request was received`);
    setMissing(lines);
    if (lines.length > 0 || person === null || received === undefined || channel === null) return;
    create.mutate(
      {
        body: {
          device_user_reference: person,
          requester: asker === 'DataSubject' ? { type: 'DataSubject' } : { type: 'Representative', name: representative.trim() },
          received_at: receivedAtOf(received),
          channel,
          ...(note.trim() === '' ? {} : { note: note.trim() }),
        },
      },
      {
        onSuccess: (recorded) => {
          notifySaved(`Erasure request recorded for ${personWords(recorded.device_user_reference, recorded.device_user_name)}. The decision has started.`);
          onDone(recorded);
        },
      },
    );
  };

  const errors = formErrorsFor({ localLines: missing, error: create.error, paths: PATHS });
  return (
    <form onSubmit={submit} noValidate aria-label="Record an erasure request">
      <Stack>
        <FormErrorSummary lines={errors.general} />
        <Select
          label="Person"
          description="The device user the request is about. Type two letters to search by name, e-mail or reference."
          placeholder="Search by name, e-mail or reference"
          searchable
          data={options}
          value={person}
          onChange={(value, option) => {
            setPerson(value);
            setPicked(value === null ? undefined : { value, label: option?.label ?? value });
          }}
          searchValue={search}
          onSearchChange={setSearch}
          filter={({ options: all }) => all}
          nothingFoundMessage={users.isFetching ? 'Searching…' : 'No device user matches'}
          error={errors.field.person}
          required
        />
        <SegmentedField<Asker>
          id="erasure-asker"
          label="Who asked"
          value={asker}
          onChange={setAsker}
          options={[
            { value: 'DataSubject', label: 'The person themself' },
            { value: 'Representative', label: 'A representative' },
          ]}
          error={asker === 'DataSubject' ? errors.field.requester : undefined}
        />
        {asker === 'Representative' && (
          <TextInput
            label="Representative's name"
            description="As the request names them (a lawyer, a relative)."
            value={representative}
            onChange={(event) => setRepresentative(event.currentTarget.value)}
            maxLength={ERASURE_REPRESENTATIVE_MAX}
            error={errors.field.representative ?? errors.field.requester}
            required
          />
        )}
        <Group grow align="flex-start">
          <DayField label="Received" value={received} onChange={setReceived} max={todayUtc()} error={errors.field.received} required />
          <Select
            label="Channel"
            placeholder="How it reached you"
            data={ERASURE_CHANNELS.map((value) => ({ value, label: ERASURE_CHANNEL_LABELS[value] }))}
            value={channel}
            onChange={(value) => setChannel(value as ErasureChannel | null)}
            error={errors.field.channel}
            required
          />
        </Group>
        <Textarea
          label="Note"
          description="Optional: what the request says, where the letter is filed."
          value={note}
          onChange={(event) => setNote(event.currentTarget.value)}
          maxLength={ERASURE_NOTE_MAX}
          autosize
          minRows={2}
          error={errors.field.note}
        />
        <Text size="sm" c="dimmed">
          Recording the request starts the decision: every record about the person is looked at, and each is marked kept
          (under a legal hold, or a legal obligation until its date) or to be erased. Nothing is erased until a second
          person approves the decision.
        </Text>
        <Group justify="flex-end">
          <Button type="submit" loading={create.isPending}>
            Record request
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
