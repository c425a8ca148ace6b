import { Button, Group, MultiSelect, NumberInput, Select, Stack, Textarea } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { ALERT_SCOPES, ALERT_SEVERITIES, type AlertScope, type AlertSeverity } from '#shared/constants/alerts.ts';
import { formErrorsFor, FormErrorSummary, notifySaved } from '../../components/forms/form-errors.tsx';
import { SegmentedField } from '../../components/forms/form-fields.tsx';
import { useCursorList } from '../../lib/api-hooks.ts';
import { SCOPE_LABELS } from './alert-labels.ts';
import { listClients } from './api/list-clients.ts';
import { useNotifyClients } from './api/notify-clients.ts';

const HOUR_MS = 3_600_000;

/** Staff send a Notification alert to chosen clients or to every client, optionally expiring after some hours. */
export function NotifyForm({ onDone }: { onDone: () => void }) {
  const clients = useCursorList(listClients, { query: { limit: '100' } });
  const notify = useNotifyClients();
  const [scope, setScope] = useState<AlertScope>('ops');
  const [severity, setSeverity] = useState<AlertSeverity>('Low');
  const [message, setMessage] = useState('');
  const [everyone, setEveryone] = useState(true);
  const [chosen, setChosen] = useState<string[]>([]);
  const [hours, setHours] = useState<number | string>('');
  const [localLines, setLocalLines] = useState<string[]>([]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const lines = [
      ...(message.trim() === '' ? ['body.message: Write the message the clients will see'] : []),
      ...(!everyone && chosen.length === 0 ? ['body.clients: Choose at least one client, or send to all'] : []),
    ];
    setLocalLines(lines);
    if (lines.length > 0) return;
    const expiresIn = typeof hours === 'number' && hours > 0 ? hours : undefined;
    notify.mutate(
      {
        body: {
          scope,
          severity,
          message: message.trim(),
          ...(everyone ? {} : { clients: chosen }),
          ...(expiresIn === undefined ? {} : { expires_after: new Date(Date.now() + expiresIn * HOUR_MS).toISOString() }),
        },
      },
      {
        onSuccess: (result) => {
          const delivered = result.data.filter((entry) => entry.ok && entry.reference !== 'admin').length;
          const refused = result.data.filter((entry) => !entry.ok).map((entry) => `${entry.reference}: ${entry.message ?? 'not delivered'}`);
          notifySaved(`Notification sent to ${delivered} ${delivered === 1 ? 'client' : 'clients'}.${refused.length > 0 ? ` Not sent: ${refused.join('; ')}` : ''}`);
          onDone();
        },
      },
    );
  };

  const errors = formErrorsFor({
    localLines,
    error: notify.error,
    paths: { scope: 'body.scope', severity: 'body.severity', message: 'body.message', clients: 'body.clients', expires: 'body.expires_after' },
  });

  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        <FormErrorSummary lines={errors.general} />
        <SegmentedField
          id="notify-scope"
          label="Scope"
          value={scope}
          onChange={setScope}
          options={ALERT_SCOPES.map((value) => ({ value, label: SCOPE_LABELS[value] }))}
          error={errors.field.scope}
        />
        <Select
          label="Severity"
          data={[...ALERT_SEVERITIES]}
          value={severity}
          allowDeselect={false}
          onChange={(value) => setSeverity((value ?? 'Low') as AlertSeverity)}
          error={errors.field.severity}
        />
        <Textarea
          label="Message"
          required
          value={message}
          onChange={(event) => setMessage(event.currentTarget.value)}
          maxLength={4000}
          autosize
          minRows={3}
          error={errors.field.message}
          data-autofocus
        />
        <SegmentedField
          id="notify-recipients"
          label="Send to"
          value={everyone ? 'all' : 'some'}
          onChange={(value) => setEveryone(value === 'all')}
          options={[
            { value: 'all', label: 'All clients' },
            { value: 'some', label: 'Chosen clients' },
          ]}
        />
        {!everyone && (
          <MultiSelect
            label="Clients"
            placeholder={chosen.length === 0 ? 'Pick one or more' : undefined}
            data={clients.items.map((client) => ({ value: client.client, label: client.display_name ? `${client.display_name} (${client.client})` : client.client }))}
            value={chosen}
            onChange={setChosen}
            searchable
            error={errors.field.clients}
          />
        )}
        <NumberInput
          label="Expires after (hours)"
          description="Optional; the alert leaves every list when it expires."
          min={1}
          max={8760}
          allowDecimal={false}
          value={hours}
          onChange={setHours}
          error={errors.field.expires}
        />
        <Group justify="flex-end">
          <Button type="submit" loading={notify.isPending}>
            Send notification
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
