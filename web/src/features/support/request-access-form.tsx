import { Autocomplete, Button, Group, NumberInput, Stack, TextInput, Textarea } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useState, type FormEvent } from 'react';
import { formErrorsFor, FormErrorSummary, notifySaved } from '../../components/forms/form-errors.tsx';
import { useClientRoles } from './api/list-client-roles.ts';
import { useRequestAccess } from './api/request-access.ts';

const HOUR_MS = 3_600_000;
/** The longest period the form offers: a month. */
const MAX_HOURS = 720;

/**
 * Staff ask a client for one of its roles for some hours. `client` fixes the client (the client view); otherwise it
 * is typed. The role field suggests the client's roles once the client is known.
 */
export function RequestAccessForm({ client: fixedClient, onDone }: { client?: string; onDone: () => void }) {
  const create = useRequestAccess();
  const [client, setClient] = useState(fixedClient ?? '');
  const [debouncedClient] = useDebouncedValue(client.trim(), 400);
  const roles = useClientRoles(fixedClient ?? debouncedClient);
  const [role, setRole] = useState('');
  const [reason, setReason] = useState('');
  const [hours, setHours] = useState<number | string>(4);
  const [localLines, setLocalLines] = useState<string[]>([]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const lines = [
      ...(client.trim() === '' ? ['client: Name the client to ask'] : []),
      ...(role.trim() === '' ? ['body.role: Choose the role to act with'] : []),
      ...(reason.trim() === '' ? ['body.request_description: Say why, for the client who decides'] : []),
    ];
    setLocalLines(lines);
    if (lines.length > 0) return;
    const period = typeof hours === 'number' && hours >= 1 ? Math.min(hours, MAX_HOURS) : 1;
    create.mutate(
      {
        client: client.trim(),
        body: { role: role.trim(), request_description: reason.trim(), requested_expiry: new Date(Date.now() + period * HOUR_MS).toISOString() },
      },
      {
        onSuccess: () => {
          notifySaved(`Support access requested from ${client.trim()}. It waits for the client's approval.`);
          onDone();
        },
      },
    );
  };

  const errors = formErrorsFor({
    localLines,
    error: create.error,
    paths: { client: ['client', 'params.client'], role: 'body.role', reason: 'body.request_description', expiry: 'body.requested_expiry' },
  });

  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        <FormErrorSummary lines={errors.general} />
        <TextInput
          label="Client"
          value={client}
          onChange={(event) => setClient(event.currentTarget.value)}
          required
          disabled={fixedClient !== undefined}
          error={errors.field.client}
          data-autofocus={fixedClient === undefined ? true : undefined}
        />
        <Autocomplete
          label="Role"
          description="The client's role to act with"
          data={roles.items.map((item) => item.role_reference)}
          value={role}
          onChange={setRole}
          required
          error={errors.field.role}
        />
        <Textarea label="Reason" value={reason} onChange={(event) => setReason(event.currentTarget.value)} required maxLength={1000} error={errors.field.reason} />
        <NumberInput label="For how many hours" min={1} max={MAX_HOURS} allowDecimal={false} value={hours} onChange={setHours} error={errors.field.expiry} />
        <Group justify="flex-end">
          <Button type="submit" loading={create.isPending}>
            Send request
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
