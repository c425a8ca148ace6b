import { Modal, Paper, SimpleGrid, Text, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { CatchBoundary } from '@tanstack/react-router';
import { useState, type ReactNode } from 'react';
import type { DeviceUser } from '#shared/contract/entities/device-users.ts';
import { PermittedButton } from '../../components/access/permitted-button.tsx';
import { ConfirmDialog } from '../../components/forms/confirm-dialog.tsx';
import { notifySaved } from '../../components/forms/form-errors.tsx';
import { PageHeader } from '../../components/page/page-header.tsx';
import { formatDateTime, formatNumber } from '../../lib/format.ts';
import { deleteDeviceUser, useOffboardDeviceUser } from './api/delete-device-user.ts';
import { useDeviceUser } from './api/get-device-user.ts';
import { DeviceUserError } from './device-user-error.tsx';
import { updateDeviceUser, useUpdateDeviceUser } from './api/update-device-user.ts';
import { DeviceUserForm } from './device-user-form.tsx';
import { activationBody, deviceUserName, serviceLabel } from './device-user-form-model.ts';
import { ActivityBadge } from './device-users-list.tsx';
import { errorLinesOf } from '../../components/data/error-lines.tsx';
import { actorName } from '../../lib/actor-name.ts';
import { LegalHoldNotice } from '../../components/data/legal-hold-badge.tsx';

/**
 * The device user's header, fields and actions (edit, offboard, re-onboard); `children` are the activity tabs.
 *
 * Its route's loader has fetched the user (ensureQueryData with the same options) and shows DeviceUserPending
 * meanwhile. A refused fetch (404, 403) shows here, under the page's title, from the page's own boundary (as a
 * recording's page does: a route's errorComponent would be a chunk of its own).
 * `history`: what opens the person's earlier versions (features/history, composed by the route).
 */
export function DeviceUserDetail({ reference, children, history }: { reference: string; children: ReactNode; history?: (user: DeviceUser) => ReactNode }) {
  return (
    <CatchBoundary getResetKey={() => reference} errorComponent={({ error }) => <DeviceUserError reference={reference} error={error} />}>
      <DeviceUserContent reference={reference} history={history}>
        {children}
      </DeviceUserContent>
    </CatchBoundary>
  );
}

function DeviceUserContent({ reference, children, history }: { reference: string; children: ReactNode; history?: ((user: DeviceUser) => ReactNode) | undefined }) {
  const user = useDeviceUser(reference);
  return (
    <>
      <PageHeader
        title={`Device user ${deviceUserName(user.data)}`}
        description={`Reference ${user.data.device_user_reference}`}
        actions={
          <>
            {history?.(user.data)}
            <DeviceUserActions user={user.data} />
          </>
        }
      />
      <LegalHoldNotice heldBy={user.data.held_by} what="device user" />
      <DeviceUserFields user={user.data} />
      {children}
    </>
  );
}

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <Text size="xs" fw={700} tt="uppercase" component="dt">
        {label}
      </Text>
      <Text component="dd" m={0}>
        {children}
      </Text>
    </div>
  );
}

function DeviceUserFields({ user }: { user: DeviceUser }) {
  return (
    <Paper withBorder p="md" mb="lg">
      <Title order={2} size="h4" mb="sm">
        Details
      </Title>
      <SimpleGrid component="dl" cols={{ base: 1, sm: 2, md: 3 }} m={0}>
        <Field label="Status">
          <ActivityBadge active={user.is_active} />
        </Field>
        <Field label="First name">{user.first_name ?? '—'}</Field>
        <Field label="Surname">{user.surname ?? '—'}</Field>
        <Field label="Email">{user.email ?? '—'}</Field>
        <Field label="Group">{user.group ?? '—'}</Field>
        <Field label="Services">{user.services.length === 0 ? '—' : user.services.map(serviceLabel).join(', ')}</Field>
        <Field label="Expected devices">{formatNumber(user.expected_device_count)}</Field>
        <Field label="Onboarded">{formatDateTime(user.onboard_date)}</Field>
        <Field label="Offboarded">{formatDateTime(user.offboard_date)}</Field>
        <Field label="Legacy platform">{user.is_legacy ? 'Yes' : 'No'}</Field>
        <Field label="Last changed">{formatDateTime(user.updated_at)}</Field>
        <Field label="Changed by">{user.updated_by === undefined ? '—' : actorName(user.updated_by_actor, user.updated_by)}</Field>
      </SimpleGrid>
    </Paper>
  );
}

function DeviceUserActions({ user }: { user: DeviceUser }) {
  const [editing, edit] = useDisclosure(false);
  const [confirming, confirm] = useDisclosure(false);
  const [localLines, setLocalLines] = useState<string[]>([]);
  // Offboarding is the DELETE (it keeps the record and needs no other field); re-onboarding is a PUT of the same fields.
  const offboard = useOffboardDeviceUser();
  const reonboard = useUpdateDeviceUser();
  const mutation = user.is_active ? offboard : reonboard;
  const mutationEndpoint = user.is_active ? deleteDeviceUser : updateDeviceUser;
  const params = { device_user_reference: user.device_user_reference };

  const done = (message: string) => {
    confirm.close();
    notifySaved(message);
  };

  const apply = () => {
    setLocalLines([]);
    if (user.is_active) {
      offboard.mutate({ params }, { onSuccess: () => done(`${deviceUserName(user)} offboarded.`) });
      return;
    }
    const body = activationBody(user, true);
    if (!body.ok) {
      setLocalLines([...body.lines, 'Edit the device user to complete these fields, then re-onboard.']);
      return;
    }
    reonboard.mutate({ params, body: body.body }, { onSuccess: () => done(`${deviceUserName(user)} re-onboarded.`) });
  };

  const lines = localLines.length > 0 ? localLines : mutation.error ? errorLinesOf(mutation.error) : [];
  const verb = user.is_active ? 'Offboard' : 'Re-onboard';

  return (
    <>
      <PermittedButton action={updateDeviceUser.action} variant="default" onClick={edit.open}>
        Edit
      </PermittedButton>
      <PermittedButton action={mutationEndpoint.action} color={user.is_active ? 'red.9' : undefined} onClick={confirm.open}>
        {verb}
      </PermittedButton>
      <Modal closeButtonProps={{ 'aria-label': 'Close' }} opened={editing} onClose={edit.close} title="Edit device user" size="lg">
        <DeviceUserForm
          user={user}
          onDone={(saved) => {
            edit.close();
            notifySaved(`${deviceUserName(saved)} saved.`);
          }}
        />
      </Modal>
      <ConfirmDialog
        opened={confirming}
        title={`${verb} ${deviceUserName(user)}?`}
        message={
          user.is_active
            ? 'The user is marked offboarded from now on. Their records stay, under the retention policy, and they can be re-onboarded later.'
            : 'The user is onboarded again from now on, with the same group and services.'
        }
        lines={lines}
        busy={mutation.isPending}
        confirmLabel={verb}
        confirmColor={user.is_active ? 'red.9' : undefined}
        onCancel={confirm.close}
        onConfirm={apply}
      />
    </>
  );
}
