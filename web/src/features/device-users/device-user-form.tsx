import { Button, Checkbox, Group, MultiSelect, NumberInput, Select, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { SERVICES, type Service } from '#shared/constants/devices.ts';
import type { DeviceUser } from '#shared/contract/entities/device-users.ts';
import { useEndpointMutation } from '../../lib/api-hooks.ts';
import { createDeviceUser, getDeviceUser, listDeviceUserDevices, listDeviceUsers, updateDeviceUser } from './api.ts';
import { checkDeviceUserForm, EMPTY_DEVICE_USER_FORM, formValuesOf, serviceLabel, type DeviceUserFormValues } from './device-user-form-model.ts';
import { ErrorLines, errorLinesOf } from '../../components/data/error-lines.tsx';
import { useGroupOptions } from './group-options.ts';

const SERVICE_OPTIONS = SERVICES.map((service) => ({ value: service, label: serviceLabel(service) }));

/**
 * Onboard a device user (no `user`) or edit one. Checked with the contract's schema first, then sent; refused input
 * (ours or the server's) shows as `path: message` lines above the buttons.
 */
export function DeviceUserForm({ user, onDone }: { user?: DeviceUser; onDone: (saved: DeviceUser) => void }) {
  const editing = user !== undefined;
  const [values, setValues] = useState<DeviceUserFormValues>(editing ? formValuesOf(user) : EMPTY_DEVICE_USER_FORM);
  const [localLines, setLocalLines] = useState<string[]>([]);
  const groups = useGroupOptions();
  const invalidates = [listDeviceUsers, getDeviceUser, listDeviceUserDevices];
  const create = useEndpointMutation(createDeviceUser, { invalidates });
  const update = useEndpointMutation(updateDeviceUser, { invalidates });
  const mutation = editing ? update : create;

  const set = <K extends keyof DeviceUserFormValues>(key: K, value: DeviceUserFormValues[K]) =>
    setValues((previous) => ({ ...previous, [key]: value }));

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
  const lines = localLines.length > 0 ? localLines : mutation.error ? errorLinesOf(mutation.error) : [];

  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        <TextInput
          label="Reference"
          description="3 to 60 characters, no comma; cannot be changed later"
          value={values.reference}
          onChange={(event) => set('reference', event.currentTarget.value)}
          disabled={editing}
          required
          data-autofocus
        />
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput label="First name" value={values.firstName} onChange={(event) => set('firstName', event.currentTarget.value)} required maxLength={35} />
          <TextInput label="Surname" value={values.surname} onChange={(event) => set('surname', event.currentTarget.value)} required maxLength={35} />
        </SimpleGrid>
        <TextInput label="Email" type="email" value={values.email} onChange={(event) => set('email', event.currentTarget.value)} required maxLength={255} />
        <Select
          label="Group"
          placeholder={groups.isLoading ? 'Loading groups…' : 'Pick a group'}
          data={groupData}
          value={values.group === '' ? null : values.group}
          onChange={(value) => set('group', value ?? '')}
          searchable
          nothingFoundMessage="No group of that name"
          required
        />
        <MultiSelect
          label="Services"
          description="At least one"
          data={SERVICE_OPTIONS}
          value={values.services}
          onChange={(value) => set('services', value as Service[])}
          required
        />
        <NumberInput
          label="Expected device count"
          min={0}
          allowDecimal={false}
          allowNegative={false}
          value={values.expectedDeviceCount}
          onChange={(value) => set('expectedDeviceCount', String(value))}
        />
        {editing && (
          <Checkbox
            label="Onboarded (untick to offboard)"
            checked={values.isActive}
            onChange={(event) => set('isActive', event.currentTarget.checked)}
          />
        )}
        <ErrorLines lines={lines} />
        <Group justify="flex-end">
          <Button type="submit" loading={mutation.isPending}>
            {editing ? 'Save changes' : 'Add device user'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
