import { ActionIcon, Button, Group, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import type { Group as GroupEntity, TagDefinition } from '#shared/contract/entities/groups.ts';
import { TAG_VALUE_MAX_LENGTH } from '#shared/constants/limits.ts';
import { putGroup, usePutGroup } from './api/put-group.ts';
import { PermittedButton } from '../../components/access/permitted-button.tsx';
import { FormErrorSummary, formErrorsFor } from '../../components/forms/form-errors.tsx';
import { checkGroupForm, GROUP_TAG_LIMIT, initialTagRows, type TagRow } from './group-form-model.ts';

/**
 * Create a group (no `group`) or replace an existing group's tags. Keys come from the tag definitions; a value is
 * picked from the definition's list, or typed when the definition allows free text.
 */
export function GroupForm({ group, definitions, onDone }: { group?: GroupEntity; definitions: readonly TagDefinition[]; onDone: (reference: string) => void }) {
  const editing = group !== undefined;
  const [reference, setReference] = useState(group?.group_reference ?? '');
  const [rows, setRows] = useState<TagRow[]>(() => initialTagRows(group, definitions));
  const [localLines, setLocalLines] = useState<string[]>([]);
  const save = usePutGroup();

  const setRow = (index: number, row: TagRow) => setRows((previous) => previous.map((current, i) => (i === index ? row : current)));
  const byKey = new Map(definitions.map((definition) => [definition.tag_key, definition]));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const checked = checkGroupForm(reference.trim(), rows, definitions);
    if (!checked.ok) {
      setLocalLines(checked.lines);
      return;
    }
    setLocalLines([]);
    save.mutate({ params: { group_reference: checked.reference }, body: checked.body }, { onSuccess: () => onDone(checked.reference) });
  };

  const errors = formErrorsFor({
    localLines,
    error: save.error,
    paths: {
      reference: ['params.group_reference', 'group_reference'],
      tags: ['body.tags', 'tags'],
      ...Object.fromEntries(
        rows.flatMap((_, index) => [
          [`tag${index}`, `body.tags.${index}`],
          [`tagValue${index}`, `body.tags.${index}.tag_value`],
        ]),
      ),
    },
  });
  // A row's key select shows the row's problems; its value field those of the value alone.
  const rowError = (name: string) => (errors.field as Record<string, string | undefined>)[name];

  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        <FormErrorSummary lines={errors.general} />
        <TextInput
          label="Group name"
          description="2 to 255 characters; cannot be changed later"
          value={reference}
          onChange={(event) => setReference(event.currentTarget.value)}
          disabled={editing}
          error={errors.field.reference}
          required
          data-autofocus
        />
        <Title order={3} size="h5">
          Tags ({rows.length} of {GROUP_TAG_LIMIT})
        </Title>
        {definitions.length === 0 && <Text size="sm">No tags are defined yet. Define tags on the Tags page first.</Text>}
        {rows.map((row, index) => {
          const definition = byKey.get(row.key);
          const used = new Set(rows.filter((_, i) => i !== index).map((other) => other.key));
          const keyOptions = definitions.filter((candidate) => !used.has(candidate.tag_key)).map((candidate) => candidate.tag_key);
          return (
            <Group key={index} align="flex-end" wrap="nowrap">
              <Select
                label={`Tag ${index + 1} key`}
                data={row.key !== '' && !keyOptions.includes(row.key) ? [row.key, ...keyOptions] : keyOptions}
                value={row.key === '' ? null : row.key}
                onChange={(value) => setRow(index, { key: value ?? '', value: byKey.get(value ?? '')?.default_value ?? '' })}
                error={rowError(`tag${index}`)}
                searchable
                style={{ flex: 1 }}
              />
              {definition !== undefined && definition.tag_values !== null ? (
                <Select
                  label={`Tag ${index + 1} value`}
                  data={definition.tag_values}
                  value={row.value === '' ? null : row.value}
                  onChange={(value) => setRow(index, { ...row, value: value ?? '' })}
                  placeholder={definition.tag_values.length === 0 ? 'No value allowed' : 'Pick a value'}
                  disabled={definition.tag_values.length === 0}
                  error={rowError(`tagValue${index}`)}
                  searchable
                  style={{ flex: 1 }}
                />
              ) : (
                <TextInput
                  label={`Tag ${index + 1} value`}
                  value={row.value}
                  onChange={(event) => setRow(index, { ...row, value: event.currentTarget.value })}
                  maxLength={TAG_VALUE_MAX_LENGTH + 1}
                  error={rowError(`tagValue${index}`)}
                  style={{ flex: 1 }}
                />
              )}
              <ActionIcon
                variant="default"
                size="lg"
                mb={2}
                aria-label={`Remove tag ${index + 1}${row.key === '' ? '' : ` (${row.key})`}`}
                onClick={() => setRows((previous) => previous.filter((_, i) => i !== index))}
              >
                ×
              </ActionIcon>
            </Group>
          );
        })}
        <Group>
          <Button
            variant="default"
            onClick={() => setRows((previous) => [...previous, { key: '', value: '' }])}
            disabled={rows.length >= GROUP_TAG_LIMIT || rows.length >= definitions.length}
          >
            Add tag
          </Button>
        </Group>
        {errors.field.tags !== undefined && (
          <Text size="sm" c="red" role="alert">
            {errors.field.tags}
          </Text>
        )}
        <Group justify="flex-end">
          <PermittedButton action={putGroup.action} type="submit" loading={save.isPending}>
            {editing ? 'Save group' : 'Create group'}
          </PermittedButton>
        </Group>
      </Stack>
    </form>
  );
}
