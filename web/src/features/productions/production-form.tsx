import { Button, Checkbox, Group, MultiSelect, Stack, TagsInput, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useState, type FormEvent } from 'react';
import type { PayloadType } from '#shared/constants/payloads.ts';
import { PRODUCTION_CUSTODIANS_MAX, PRODUCTION_NUMBERS_MAX, type Production } from '#shared/contract/entities/productions.ts';
import { DateRangeFilter } from '../../components/filters/date-range-filter.tsx';
import { formErrorsFor, FormErrorSummary } from '../../components/forms/form-errors.tsx';
import { PAYLOAD_TYPE_LABELS } from '../../lib/labels.ts';
import { useCreateProduction } from './api/productions-api.ts';
import { useDeviceUserSearch } from './api/search-device-users.ts';
import { DestinationSelect } from './destination-select.tsx';
import {
  custodianOption,
  custodianOptions,
  emptyDraft,
  PRODUCIBLE_TYPES,
  PRODUCTION_FORM_PATHS,
  productionRequestOf,
  type ProductionDraft,
  type ProductionFormKind,
} from './production-request.ts';

export const FORM_TITLES: Record<ProductionFormKind, string> = { Search: 'New production from a search', ClientCopy: 'New client copy' };

/**
 * "New production" of /dashboard/productions: a search (custodians picked by name, optionally narrowed to counterparty
 * numbers) or a client copy (the client's numbers only), the period as days, payload types, the control-number prefix
 * and where it goes. The form's own check and the server's `path: message` lines land under their fields.
 */
export function NewProductionForm({ kind, onStarted }: { kind: ProductionFormKind; onStarted: (production: Production) => void }) {
  const [draft, setDraft] = useState<ProductionDraft>(() => emptyDraft(kind));
  const [missing, setMissing] = useState<string[]>([]);
  const create = useCreateProduction();
  const change = (part: Partial<ProductionDraft>) => setDraft((current) => ({ ...current, ...part }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const request = productionRequestOf(draft);
    setMissing(request.ok ? [] : request.lines);
    if (!request.ok) return;
    create.mutate({ body: request.body }, { onSuccess: onStarted });
  };

  const errors = formErrorsFor({ localLines: missing, error: create.error, paths: PRODUCTION_FORM_PATHS });
  const periodError = errors.field.from ?? errors.field.to;
  return (
    <form onSubmit={submit} noValidate aria-label={FORM_TITLES[kind]}>
      <Stack>
        <FormErrorSummary lines={errors.general} />
        {kind === 'Search' && <CustodianPicker value={draft.custodians} onChange={(custodians) => change({ custodians })} error={errors.field.custodians} />}
        <TagsInput
          label={kind === 'ClientCopy' ? "The client's numbers" : 'Counterparty numbers'}
          description={
            kind === 'ClientCopy'
              ? 'Every conversation with these numbers, whoever in the firm had it (MiFID II Art 16(7)). Press Enter after each.'
              : 'Optional: only conversations naming one of these numbers. Press Enter after each.'
          }
          value={draft.numbers}
          onChange={(numbers) => change({ numbers })}
          maxTags={PRODUCTION_NUMBERS_MAX}
          error={errors.field.numbers}
          required={kind === 'ClientCopy'}
          clearable
        />
        <Group grow align="flex-start">
          <DateRangeFilter from={draft.period.from} to={draft.period.to} onChange={(period) => change({ period })} fromLabel="Period from" toLabel="Period to" />
        </Group>
        {periodError !== undefined && (
          <Text size="sm" c="red" role="alert">
            Period: {periodError}
          </Text>
        )}
        <Checkbox.Group label="Payload types" value={draft.types} onChange={(types) => change({ types: types as PayloadType[] })} error={errors.field.types}>
          <Group gap="md" mt={4}>
            {PRODUCIBLE_TYPES.map((type) => (
              <Checkbox key={type} value={type} label={PAYLOAD_TYPE_LABELS[type]} />
            ))}
          </Group>
        </Checkbox.Group>
        <Group grow align="flex-start">
          <TextInput
            label="Control-number prefix"
            description="Letters, digits, _ and - (numbers read PREFIX00000001 on)"
            value={draft.prefix}
            onChange={(event) => change({ prefix: event.currentTarget.value })}
            maxLength={20}
            error={errors.field.prefix}
            required
          />
          <DestinationSelect value={draft.target} onChange={(target) => change({ target })} error={errors.field.destination} />
        </Group>
        <Group justify="flex-end">
          <Button type="submit" loading={create.isPending}>
            Start production
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** Device users picked by name: searched as the user types, the ones picked kept with their names. */
function CustodianPicker({ value, onChange, error }: { value: string[]; onChange: (custodians: string[]) => void; error?: string | undefined }) {
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), 300);
  const users = useDeviceUserSearch(debounced, true);
  // The names of those picked, remembered as picked: the next search's answer no longer holds them.
  const [labels, setLabels] = useState<ReadonlyMap<string, string>>(new Map());
  const found = (users.data && 'data' in users.data ? users.data.data : []).map(custodianOption);
  const pick = (custodians: string[]) => {
    setLabels((known) => new Map([...known, ...found.map((option) => [option.value, option.label] as const)]));
    onChange(custodians);
  };
  return (
    <MultiSelect
      label="Custodians"
      description="Whose calls and messages: device users, by name. Type two letters to search by name, e-mail or reference."
      data={custodianOptions(found, value, labels)}
      value={value}
      onChange={pick}
      searchable
      searchValue={search}
      onSearchChange={setSearch}
      filter={({ options }) => options}
      nothingFoundMessage={users.isFetching ? 'Searching…' : 'No device user matches'}
      maxValues={PRODUCTION_CUSTODIANS_MAX}
      error={error}
      required
      clearable
    />
  );
}
