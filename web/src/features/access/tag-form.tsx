import { Checkbox, Group, Select, Stack, TagsInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import type { TagDefinition } from '#shared/contract/entities/groups.ts';
import { ApiError } from '../../lib/api-error.ts';
import { putTag, usePutTag } from './api/put-tag.ts';
import { PermittedButton } from '../../components/access/permitted-button.tsx';
import { ErrorLines } from '../../components/data/error-lines.tsx';
import { FormErrorSummary, formErrorsFor } from '../../components/forms/form-errors.tsx';
import { SegmentedField, TextField, useFormValues } from '../../components/forms/form-fields.tsx';
import { checkTagForm, EMPTY_TAG_FORM, tagFormValuesOf, type TagFormValues } from './tag-form-model.ts';

/** True for the 409 that lists groups failing review against the new definition (retry with force_update). */
export const isGroupConflict = (error: unknown): boolean => error instanceof ApiError && error.status === 409;

/**
 * Create or change a tag definition. When existing groups would fail the new definition the server answers 409
 * listing them; the user may then apply it anyway (force_update), which leaves those groups as they are.
 */
export function TagForm({ definition, onDone }: { definition?: TagDefinition; onDone: (key: string) => void }) {
  const editing = definition !== undefined;
  const { values, set } = useFormValues<TagFormValues>(editing ? tagFormValuesOf(definition) : EMPTY_TAG_FORM);
  const [localLines, setLocalLines] = useState<string[]>([]);
  const save = usePutTag();

  const send = (force: boolean) => {
    const checked = checkTagForm(values, force);
    if (!checked.ok) {
      setLocalLines(checked.lines);
      return;
    }
    setLocalLines([]);
    save.mutate({ params: { tag_key: checked.key }, body: checked.body }, { onSuccess: () => onDone(checked.key) });
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    send(false);
  };

  const conflict = localLines.length === 0 && isGroupConflict(save.error);
  const errors = formErrorsFor({
    localLines,
    error: save.error,
    paths: { key: 'params.tag_key', values: 'body.tag_values', isRequired: 'body.is_required', defaultValue: 'body.default_value' },
  });
  const form = { values, set, errors: errors.field };

  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        {!conflict && <FormErrorSummary lines={errors.general} />}
        <TextField
          form={form}
          name="key"
          label="Tag key"
          description="1 to 60 characters; cannot be changed later"
          disabled={editing}
          required
          data-autofocus
        />
        <SegmentedField
          id="tag-values-mode"
          label="Allowed values"
          value={values.mode}
          onChange={(mode) => set('mode', mode)}
          options={[
            { value: 'free', label: 'Any text' },
            { value: 'list', label: 'Only listed values' },
          ]}
        />
        {values.mode === 'list' && (
          <TagsInput
            label="Values"
            description="Press Enter after each value (at most 255 characters each). An empty list allows no value."
            value={values.values}
            onChange={(list) => set('values', list)}
            error={errors.field.values}
            clearable
          />
        )}
        <Checkbox
          label="Required: every group carries this tag (needs a listed default value)"
          checked={values.isRequired}
          onChange={(event) => set('isRequired', event.currentTarget.checked)}
          error={errors.field.isRequired}
        />
        {values.mode === 'list' ? (
          <Select
            label="Default value"
            data={values.values}
            value={values.defaultValue === '' ? null : values.defaultValue}
            onChange={(value) => set('defaultValue', value ?? '')}
            clearable
            placeholder="No default"
            error={errors.field.defaultValue}
          />
        ) : (
          <TextField
            form={form}
            name="defaultValue"
            label="Default value"
          />
        )}
        {conflict && <ErrorLines title="These groups do not fit the new definition" lines={errors.general} />}
        <Group justify="flex-end">
          {conflict && (
            <PermittedButton action={putTag.action} color="red.9" onClick={() => send(true)} loading={save.isPending}>
              Apply anyway
            </PermittedButton>
          )}
          <PermittedButton action={putTag.action} type="submit" loading={save.isPending && !conflict}>
            {editing ? 'Save tag' : 'Create tag'}
          </PermittedButton>
        </Group>
      </Stack>
    </form>
  );
}
