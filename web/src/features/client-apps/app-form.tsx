import { Autocomplete, Button, Group, MultiSelect, SimpleGrid, Stack, TagsInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import type { ClientAppConfiguration } from '#shared/contract/entities/client-apps.ts';
import { formErrorsFor, FormErrorSummary, notifySaved } from '../../components/forms/form-errors.tsx';
import { TextField, useFormValues } from '../../components/forms/form-fields.tsx';
import { APP_FIELD_PATHS, appFormValuesOf, checkAppForm, EMPTY_APP_FORM, type AppFormValues } from './app-form-model.ts';
import { useAppChoices } from './api/app-choices.ts';
import { useCreateApp } from './api/create-app.ts';
import { useUpdateApp } from './api/update-app.ts';

/** Register or change a client app: where its tokens come from (OIDC), which group and roles it acts with, from where. */
export function AppForm({ app, onDone }: { app?: ClientAppConfiguration; onDone: () => void }) {
  const editing = app !== undefined;
  const { values, set } = useFormValues<AppFormValues>(editing ? appFormValuesOf(app) : EMPTY_APP_FORM);
  const [localLines, setLocalLines] = useState<string[]>([]);
  const choices = useAppChoices();
  const create = useCreateApp();
  const update = useUpdateApp();
  const save = editing ? update : create;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const checked = checkAppForm(values);
    if (!checked.ok) {
      setLocalLines(checked.lines);
      return;
    }
    setLocalLines([]);
    save.mutate(
      { params: { app_reference: checked.reference }, body: checked.body },
      {
        onSuccess: () => {
          notifySaved(editing ? `Client app ${checked.reference} saved.` : `Client app ${checked.reference} registered.`);
          onDone();
        },
      },
    );
  };

  const errors = formErrorsFor({ localLines, error: save.error, paths: APP_FIELD_PATHS });
  const form = { values, set, errors: errors.field };
  const roleOptions = [...new Set([...choices.roles, ...values.roles])];

  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        <FormErrorSummary lines={errors.general} />
        <TextField
          form={form}
          name="reference"
          label="Reference"
          description="3 to 60 characters: letters, digits, spaces and - _ . ! ( ). Cannot be changed later."
          disabled={editing}
          required
          data-autofocus
        />
        <TextField form={form} name="issuer" label="Token issuer" description="The OIDC issuer URL the app's tokens name (https://)" required />
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextField form={form} name="audience" label="Audience" description="At least 5 characters" required />
          <TextField form={form} name="jwksUri" label="JWKS URL" description="Where the issuer publishes its signing keys (https://)" required />
        </SimpleGrid>
        <Autocomplete
          label="Group"
          description="Optional: the group the app's calls act in"
          data={choices.groups}
          value={values.group}
          onChange={(value) => set('group', value)}
          error={errors.field.group}
        />
        <MultiSelect
          label="Roles"
          description="At least one; what the app may do"
          data={roleOptions}
          value={values.roles}
          onChange={(roles) => set('roles', roles)}
          searchable
          required
          error={errors.field.roles}
        />
        <TagsInput
          label="CIDR ranges"
          description="Optional: addresses the app may call from, e.g. 203.0.113.0/24 (press Enter after each)"
          value={values.cidrRanges}
          onChange={(ranges) => set('cidrRanges', ranges)}
          clearable
          error={errors.field.cidrRanges}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onDone}>
            Cancel
          </Button>
          <Button type="submit" loading={save.isPending}>
            {editing ? 'Save app' : 'Register app'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
