import { Autocomplete, Button, Group, Select, Stack, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useState, type FormEvent } from 'react';
import type { LegalHoldTargetType } from '#shared/constants/account.ts';
import type { LegalHold } from '#shared/contract/entities/account-data.ts';
import { formErrorsFor, FormErrorSummary, notifySaved } from '../../components/forms/form-errors.tsx';
import { SegmentedField } from '../../components/forms/form-fields.tsx';
import { LEGAL_HOLD_TARGET_LABELS } from '../../lib/labels.ts';
import { useCan } from '../../lib/use-can.ts';
import { useDeviceUserSearch } from './api/list-device-users.ts';
import { usePlaceLegalHold } from './api/place-legal-hold.ts';
import { useRecentPortalUsers } from './api/list-user-activity.ts';

/** "Place a hold": on a device user (picked from the list, searched by name, e-mail or reference) or a portal user. */
export function PlaceHoldForm({ onDone }: { onDone: (hold: LegalHold) => void }) {
  const [targetType, setTargetType] = useState<LegalHoldTargetType>('DeviceUser');
  const [deviceUser, setDeviceUser] = useState<string | null>(null);
  const [portalUser, setPortalUser] = useState('');
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), 300);
  const users = useDeviceUserSearch(debounced);
  const place = usePlaceLegalHold();
  const canReadTrail = useCan('activities:List');
  const recentPortalUsers = useRecentPortalUsers(targetType === 'PortalUser' && canReadTrail.allowed);
  const [missing, setMissing] = useState<string[]>([]);

  const target = targetType === 'DeviceUser' ? (deviceUser ?? '') : portalUser.trim();
  const options = (users.data && 'data' in users.data ? users.data.data : []).map((user) => {
    const name = [user.first_name, user.surname].filter(Boolean).join(' ');
    return { value: user.device_user_reference, label: `${user.device_user_reference}${name ? ` (${name})` : ''}` };
  });
  // Keep the chosen user among the options while the search moves on, so the field still shows it.
  if (deviceUser !== null && !options.some((option) => option.value === deviceUser)) options.unshift({ value: deviceUser, label: deviceUser });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (target === '') {
      setMissing([`params.target: ${targetType === 'DeviceUser' ? 'Choose a device user' : 'Enter the portal user reference'}`]);
      return;
    }
    setMissing([]);
    place.mutate(
      { params: { target_type: targetType, target }, body: { is_active: true } },
      {
        onSuccess: (hold) => {
          // Placing never waits for a second approver (only a release does), so the answer is the hold itself.
          if (!('is_active' in hold)) return;
          notifySaved(`Legal hold placed on ${LEGAL_HOLD_TARGET_LABELS[targetType].toLowerCase()} ${target}.`);
          onDone(hold);
        },
      },
    );
  };

  const errors = formErrorsFor({ localLines: missing, error: place.error, paths: { target: 'params.target', targetType: 'params.target_type' } });
  return (
    <form onSubmit={submit} noValidate aria-label="Place a legal hold">
      <Stack>
        <FormErrorSummary lines={errors.general} />
        <SegmentedField<LegalHoldTargetType>
          id="hold-target-type"
          label="On whom"
          value={targetType}
          onChange={setTargetType}
          options={[
            { value: 'DeviceUser', label: 'A device user' },
            { value: 'PortalUser', label: 'A portal user' },
          ]}
        />
        {targetType === 'DeviceUser' ? (
          <Select
            label="Device user"
            description="Holds their recordings, GPS fixes and device logs, and what the devices they hold now recorded. Type two letters to search."
            placeholder="Search by reference, name or e-mail"
            searchable
            data={options}
            value={deviceUser}
            onChange={setDeviceUser}
            searchValue={search}
            onSearchChange={setSearch}
            nothingFoundMessage={users.isFetching ? 'Searching…' : 'No device user matches'}
            filter={({ options: all }) => all}
            error={errors.field.target}
            required
          />
        ) : (
          <Autocomplete
            label="Portal user reference"
            description="Holds what this person wrote (comments, receipts). The reference is the user id the audit trail names them by; people who used the portal lately are suggested."
            data={recentPortalUsers}
            value={portalUser}
            onChange={setPortalUser}
            maxLength={255}
            error={errors.field.target}
            required
          />
        )}
        <Text size="sm" c="dimmed">
          While the hold is active, retention deletes and destroys none of what it covers, whatever the policy says.
        </Text>
        <Group justify="flex-end">
          <Button type="submit" loading={place.isPending}>
            Place hold
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
