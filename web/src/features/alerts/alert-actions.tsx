import { Button, Group, Modal, Stack, Textarea } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import type { AlertScope } from '#shared/constants/alerts.ts';
import type { Alert, AlertPermissions, BulkResult } from '#shared/contract/entities/alerts.ts';
import { gateProps, PermissionTooltip } from '../../components/access/permitted-button.tsx';
import { formErrorsFor, FormErrorSummary, notifySaved } from '../../components/forms/form-errors.tsx';
import { useCan } from '../../lib/use-can.ts';
import type { Permission } from '../../lib/permission.ts';
import { canClearScope } from './alert-permissions.ts';
import { describeBulkResult, SCOPE_LABELS } from './alert-labels.ts';
import { useClearAlerts, useClearClientAlerts } from './api/clear-alerts.ts';
import { useDismissAlerts, useDismissClientAlerts } from './api/dismiss-alerts.ts';

export type AlertSurface = 'tenant' | 'staff';

/** The provider's own alerts (the staff list) belong to client `admin`. */
const clientOf = (alert: Alert): string => alert.client ?? 'admin';

/** Says how a bulk action went: a success note, or a warning naming each alert the server refused. */
function report(results: BulkResult[], done: string): void {
  const { ok, message } = describeBulkResult({ data: results.flatMap((result) => result.data) }, done);
  if (ok) notifySaved(message);
  else notifications.show({ title: 'Some alerts were not changed', message, color: 'yellow', autoClose: false, closeButtonProps: { 'aria-label': 'Close notification' } });
}

/** Groups alert references by client, so staff send one request per client. */
function byClient(alerts: readonly Alert[]): Map<string, string[]> {
  const groups = new Map<string, string[]>();
  for (const alert of alerts) groups.set(clientOf(alert), [...(groups.get(clientOf(alert)) ?? []), alert.alert_reference]);
  return groups;
}

/**
 * Clear (with an optional reason) and Dismiss for one or up to 100 alerts of one scope. Clear needs the scope's write
 * permission as well as the action; both buttons say why when the user's roles refuse them.
 */
export function AlertActions({
  surface,
  scope,
  alerts,
  permissions,
  onDone,
  size = 'sm',
  bulk = false,
}: {
  surface: AlertSurface;
  scope: AlertScope;
  alerts: readonly Alert[];
  permissions: AlertPermissions;
  onDone?: () => void;
  size?: 'xs' | 'sm';
  /** The list's bar: the buttons say how many selected alerts they act on. */
  bulk?: boolean;
}) {
  const [opened, { open, close }] = useDisclosure(false);
  const [reason, setReason] = useState('');
  const clearTenant = useClearAlerts();
  const clearStaff = useClearClientAlerts();
  const dismissTenant = useDismissAlerts();
  const dismissStaff = useDismissClientAlerts();
  const clear = surface === 'tenant' ? clearTenant : clearStaff;
  const dismiss = surface === 'tenant' ? dismissTenant : dismissStaff;

  const clearAction = useCan(surface === 'tenant' ? 'alerts:Clear' : 'internal:ClearAlerts');
  const dismissAction = useCan(surface === 'tenant' ? 'alerts:Dismiss' : 'internal:DismissAlerts');
  const clearable = alerts.filter((alert) => alert.alert_state === 'Triggered');
  const clearPermission: Permission = !clearAction.allowed
    ? clearAction
    : !canClearScope(permissions, scope)
      ? { action: clearAction.action, allowed: false, reason: `Your roles do not allow clearing ${SCOPE_LABELS[scope].toLowerCase()} alerts (${scope}_write).` }
      : clearAction;
  const nothing = alerts.length === 0;

  const runClear = async () => {
    const body = { action: 'Clear' as const, ...(reason.trim() === '' ? {} : { cleared_reason: reason.trim() }) };
    const results =
      surface === 'tenant'
        ? [await clearTenant.mutateAsync({ body: { ...body, alert_references: clearable.map((alert) => alert.alert_reference) } })]
        : await Promise.all(
            [...byClient(clearable)].map(([client, references]) => clearStaff.mutateAsync({ client, body: { ...body, alert_references: references } })),
          );
    report(results, 'cleared');
    setReason('');
    close();
    onDone?.();
  };

  const runDismiss = async () => {
    const results =
      surface === 'tenant'
        ? [await dismissTenant.mutateAsync({ body: { alert_references: alerts.map((alert) => alert.alert_reference) } })]
        : await Promise.all(
            [...byClient(alerts)].map(([client, references]) => dismissStaff.mutateAsync({ client, body: { alert_references: references } })),
          );
    report(results, 'dismissed');
    onDone?.();
  };

  const errors = formErrorsFor({ error: clear.error, paths: { reason: 'body.cleared_reason' } });
  const subject = alerts.length === 1 ? 'this alert' : `${alerts.length} alerts`;

  return (
    <>
      <Group gap="xs" wrap="nowrap">
        <PermissionTooltip permission={clearPermission}>
          <Button
            size={size}
            disabled={nothing || (clearPermission.allowed && clearable.length === 0)}
            {...gateProps(clearPermission, () => {
              clear.reset();
              open();
            })}
          >
            Clear{bulk ? ` (${clearable.length})` : ''}
          </Button>
        </PermissionTooltip>
        <PermissionTooltip permission={dismissAction}>
          <Button
            size={size}
            variant="default"
            disabled={nothing}
            loading={dismiss.isPending}
            {...gateProps(dismissAction, () => void runDismiss().catch(() => undefined))}
          >
            Dismiss{bulk ? ` (${alerts.length})` : ''}
          </Button>
        </PermissionTooltip>
      </Group>
      <Modal opened={opened} onClose={close} title={`Clear ${subject}`} closeButtonProps={{ 'aria-label': 'Close' }}>
        <form
          onSubmit={(event) => {
            event.preventDefault();
            void runClear().catch(() => undefined);
          }}
          noValidate
        >
          <Stack>
            <FormErrorSummary lines={errors.general} />
            <Textarea
              label="Reason"
              description="Optional; kept with the alert. A new occurrence triggers a cleared alert again."
              value={reason}
              onChange={(event) => setReason(event.currentTarget.value)}
              maxLength={1000}
              error={errors.field.reason}
              autosize
              minRows={2}
              data-autofocus
            />
            <Group justify="flex-end">
              <Button variant="default" onClick={close}>
                Cancel
              </Button>
              <Button type="submit" loading={clear.isPending}>
                Clear {subject}
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
    </>
  );
}
