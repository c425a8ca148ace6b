import { Button, Checkbox, Group, SegmentedControl, Select, Stack, TagsInput, Text, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import type { TagDefinition } from '#shared/contract/entities/groups.ts';
import { ApiError } from '../../lib/api-error.ts';
import { useEndpointMutation } from '../../lib/api-hooks.ts';
import { getTag, listGroups, listTags, putTag } from './api.ts';
import { ErrorLines, errorLinesOf } from '../../components/data/error-lines.tsx';
import { checkTagForm, EMPTY_TAG_FORM, tagFormValuesOf, type TagFormValues } from './tag-form-model.ts';

/** True for the 409 that lists groups failing review against the new definition (retry with force_update). */
export const isGroupConflict = (error: unknown): boolean => error instanceof ApiError && error.status === 409;

/**
 * Create or change a tag definition. When existing groups would fail the new definition the server answers 409
 * listing them; the user may then apply it anyway (force_update), which leaves those groups as they are.
 */
export function TagForm({ definition, onDone }: { definition?: TagDefinition; onDone: () => void }) {
  const editing = definition !== undefined;
  const [values, setValues] = useState<TagFormValues>(editing ? tagFormValuesOf(definition) : EMPTY_TAG_FORM);
  const [localLines, setLocalLines] = useState<string[]>([]);
  const save = useEndpointMutation(putTag, { invalidates: [listTags, getTag, listGroups] });
  const set = <K extends keyof TagFormValues>(key: K, value: TagFormValues[K]) => setValues((previous) => ({ ...previous, [key]: value }));

  const send = (force: boolean) => {
    const checked = checkTagForm(values, force);
    if (!checked.ok) {
      setLocalLines(checked.lines);
      return;
    }
    setLocalLines([]);
    save.mutate({ params: { tag_key: checked.key }, body: checked.body }, { onSuccess: onDone });
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    send(false);
  };

  const conflict = localLines.length === 0 && isGroupConflict(save.error);
  const lines = localLines.length > 0 ? localLines : save.error ? errorLinesOf(save.error) : [];

  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        <TextInput
          label="Tag key"
          description="1 to 60 characters; cannot be changed later"
          value={values.key}
          onChange={(event) => set('key', event.currentTarget.value)}
          disabled={editing}
          required
          data-autofocus
        />
        <div>
          <Text size="sm" fw={500} id="tag-values-mode" mb={4}>
            Allowed values
          </Text>
          <SegmentedControl
            aria-labelledby="tag-values-mode"
            value={values.mode}
            onChange={(mode) => set('mode', mode === 'list' ? 'list' : 'free')}
            data={[
              { value: 'free', label: 'Any text' },
              { value: 'list', label: 'Only listed values' },
            ]}
          />
        </div>
        {values.mode === 'list' && (
          <TagsInput
            label="Values"
            description="Press Enter after each value (at most 255 characters each). An empty list allows no value."
            value={values.values}
            onChange={(list) => set('values', list)}
            clearable
          />
        )}
        <Checkbox
          label="Required: every group carries this tag (needs a listed default value)"
          checked={values.isRequired}
          onChange={(event) => set('isRequired', event.currentTarget.checked)}
        />
        {values.mode === 'list' ? (
          <Select
            label="Default value"
            data={values.values}
            value={values.defaultValue === '' ? null : values.defaultValue}
            onChange={(value) => set('defaultValue', value ?? '')}
            clearable
            placeholder="No default"
          />
        ) : (
          <TextInput label="Default value" value={values.defaultValue} onChange={(event) => set('defaultValue', event.currentTarget.value)} />
        )}
        <ErrorLines title={conflict ? 'These groups do not fit the new definition' : undefined} lines={lines} />
        <Group justify="flex-end">
          {conflict && (
            <Button color="red.9" onClick={() => send(true)} loading={save.isPending}>
              Apply anyway
            </Button>
          )}
          <Button type="submit" loading={save.isPending && !conflict}>
            {editing ? 'Save tag' : 'Create tag'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
