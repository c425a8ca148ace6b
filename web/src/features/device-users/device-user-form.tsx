import { Checkbox, Group, MultiSelect, NumberInput, Select, SimpleGrid, Stack } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { SERVICES, type Service } from '#shared/constants/devices.ts';
import type { DeviceUser } from '#shared/contract/entities/device-users.ts';
import { PermittedButton } from '../../components/access/permitted-button.tsx';
import { createDeviceUser, useCreateDeviceUser } from './api/create-device-user.ts';
import { updateDeviceUser, useUpdateDeviceUser } from './api/update-device-user.ts';
import {
  checkDeviceUserForm,
  EMPTY_DEVICE_USER_FORM,
  formValuesOf,
  serviceLabel,
  type DeviceUserFormValues,
} from './device-user-form-model.ts';
import { FormErrorSummary, formErrorsFor } from '../../components/forms/form-errors.tsx';
import { TextField, useFormValues } from '../../components/forms/form-fields.tsx';
import { useGroupOptions } from './api/list-groups.ts';

const SERVICE_OPTIONS = SERVICES.map((service) => ({ value: service, label: serviceLabel(service) }));

/** Which request path each field of the form fills. */
const FIELD_PATHS = {
  reference: 'params.device_user_reference',
  firstName: 'body.first_name',
  surname: 'body.surname',
  email: 'body.email',
  group: 'body.group',
  services: 'body.services',
  expectedDeviceCount: 'body.expected_device_count',
  isActive: 'body.is_active',
} as const;

/**
 * Onboard a device user (no `user`) or edit one. Checked with the contract's schema first, then sent; refused input
 * (ours or the server's) shows under the field it concerns, and anything naming no field above the form.
 */
export function DeviceUserForm({ user, onDone }: { user?: DeviceUser; onDone: (saved: DeviceUser) => void }) {
  const editing = user !== undefined;
  const { values, set } = useFormValues<DeviceUserFormValues>(editing ? formValuesOf(user) : EMPTY_DEVICE_USER_FORM);
  const [localLines, setLocalLines] = useState<string[]>([]);
  const groups = useGroupOptions();
  const create = useCreateDeviceUser();
  const update = useUpdateDeviceUser({ formErrors: true });
  const mutation = editing ? update : create;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const checked = checkDeviceUserForm(values);
    if (!checked.ok) {
      setLocalLines(checked.lines);
      return;
    }
    setLocalLines([]);
    const input = { params: { device_user_reference: checked.reference }, body: checked.body };
    mutation.mutate(input, { onSuccess: onDone });
  };

  const groupData = values.group !== '' && !groups.options.includes(values.group) ? [values.group, ...groups.options] : groups.options;
  const errors = formErrorsFor({ localLines, error: mutation.error, paths: FIELD_PATHS });
  const form = { values, set, errors: errors.field };

  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        <FormErrorSummary lines={errors.general} />
        <TextField
          form={form}
          name="reference"
          label="Reference"
          description="3 to 60 characters, no comma; cannot be changed later"
          disabled={editing}
          required
          data-autofocus
        />
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextField
            form={form}
            name="firstName"
            label="First name"
            required
            maxLength={35}
          />
          <TextField
            form={form}
            name="surname"
            label="Surname"
            required
            maxLength={35}
          />
        </SimpleGrid>
        <TextField
          form={form}
          name="email"
          label="Email"
          type="email"
          required
          maxLength={255}
        />
        <Select
          label="Group"
          placeholder={groups.isLoading ? 'Loading groups…' : 'Pick a group'}
          data={groupData}
          value={values.group === '' ? null : values.group}
          onChange={(value) => set('group', value ?? '')}
          searchable
          nothingFoundMessage="No group of that name"
          error={errors.field.group}
          required
        />
        <MultiSelect
          label="Services"
          description="At least one"
          data={SERVICE_OPTIONS}
          value={values.services}
          onChange={(value) => set('services', value as Service[])}
          error={errors.field.services}
          required
        />
        <NumberInput
          label="Expected device count"
          min={0}
          allowDecimal={false}
          allowNegative={false}
          value={values.expectedDeviceCount}
          onChange={(value) => set('expectedDeviceCount', String(value))}
          error={errors.field.expectedDeviceCount}
        />
        {editing && (
          <Checkbox
            label="Onboarded (untick to offboard)"
            checked={values.isActive}
            onChange={(event) => set('isActive', event.currentTarget.checked)}
            error={errors.field.isActive}
          />
        )}
        <Group justify="flex-end">
          <PermittedButton action={editing ? updateDeviceUser.action : createDeviceUser.action} type="submit" loading={mutation.isPending}>
            {editing ? 'Save changes' : 'Add device user'}
          </PermittedButton>
        </Group>
      </Stack>
    </form>
  );
}
