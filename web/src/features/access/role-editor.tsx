import { Button, Checkbox, Group, MultiSelect, Paper, SimpleGrid, Spoiler, Stack, TagsInput, Text, Textarea, TextInput, Title } from '@mantine/core';
import { useMemo, useState, type FormEvent } from 'react';
import { PAYLOAD_TYPES, type PayloadType } from '#shared/constants/payloads.ts';
import type { Role } from '#shared/contract/entities/roles.ts';
import { putRole, usePutRole } from './api/put-role.ts';
import { PermittedButton } from '../../components/access/permitted-button.tsx';
import { ErrorLines } from '../../components/data/error-lines.tsx';
import { formErrorsFor } from '../../components/forms/form-errors.tsx';
import { useCan } from '../../lib/use-can.ts';
import { roleSummary, type Denial } from './explain-rule.ts';
import { checkRole, EMPTY_RULE, type CatalogueEntry, type RoleDraft } from './role-model.ts';
import { ALERT_PERMISSION_LABELS, optionsOf, PAYLOAD_TYPE_LABELS } from '../../lib/labels.ts';
import { RuleCard } from './rule-card.tsx';
import { roleReach, useHeldRoles, type HeldRoles } from './role-reach.ts';

const ALERT_FLAGS = (['ops_read', 'ops_write', 'sec_read', 'sec_write'] as const).map((flag) => [flag, ALERT_PERMISSION_LABELS[flag]] as const);

/**
 * The permission editor of the create and detail pages. Every change is checked live with the contract's RoleRequest
 * schema and the server's matcher check; each rule explains itself; the summary evaluates the whole role against the
 * action catalogue with shared/permissions. Saves with admin.roles.put. A role the user holds, or one granting more
 * than their own roles, is shown read-only with the reason; a draft granting more than their roles cannot be saved
 * (the server's own check, role-reach.ts).
 */
export function RoleEditor({ initial, creating, readOnly: systemRole, catalogue, onSaved, stored, held: givenHeld }: {
  initial: RoleDraft;
  creating: boolean;
  readOnly: boolean;
  catalogue: readonly CatalogueEntry[];
  onSaved: (role: Role) => void;
  /** The role as stored, when editing one. */
  stored?: Role | undefined;
  /** The roles the user acts with; read from the session when not given. */
  held?: HeldRoles | undefined;
}) {
  const canSave = useCan(putRole.action);
  const sessionHeld = useHeldRoles();
  const held = givenHeld ?? sessionHeld;
  const [draft, setDraft] = useState<RoleDraft>(initial);
  const [touched, setTouched] = useState(false);
  const save = usePutRole();
  const check = useMemo(() => checkRole(draft, { checkReference: creating }), [draft, creating]);
  const reach = useMemo(
    () => roleReach(held, { reference: draft.reference.trim(), creating, stored, body: check.body }),
    [held, draft.reference, creating, stored, check.body],
  );
  // A system role, a role the user holds or that grants more than theirs, or a user whose roles may not change roles,
  // reads the role without being offered edits.
  const readOnly = systemRole || !canSave.allowed || reach.lockedReason !== undefined;
  const summary = useMemo(() => roleSummary(draft.rules, catalogue), [draft.rules, catalogue]);

  const update = (next: Partial<RoleDraft>) => {
    setTouched(true);
    setDraft((previous) => ({ ...previous, ...next }));
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (check.body === undefined) return;
    save.mutate({ params: { role_reference: draft.reference.trim() }, body: check.body }, { onSuccess: onSaved });
  };

  const errors = formErrorsFor({
    localLines: touched ? check.lines : [],
    error: save.error,
    paths: {
      reference: 'params.role_reference',
      description: 'body.description',
      payloadTypes: 'body.payload_types',
      cidrRanges: 'body.cidr_ranges',
      alerts: 'body.alert_permissions',
    },
  });
  const problems = check.lines.length + check.ruleLines.reduce((sum, list) => sum + list.length, 0) + reach.beyond.length;

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="lg">
        <Paper withBorder p="md">
          <Title order={2} size="h4" mb="sm">
            Role
          </Title>
          <SimpleGrid cols={{ base: 1, md: 2 }}>
            <TextInput
              label="Role name"
              description="3 to 35 characters; cannot be changed later"
              value={draft.reference}
              onChange={(event) => update({ reference: event.currentTarget.value })}
              disabled={!creating || readOnly}
              error={errors.field.reference}
              required
            />
            <Textarea
              label="Description"
              value={draft.description}
              onChange={(event) => update({ description: event.currentTarget.value })}
              error={errors.field.description}
              disabled={readOnly}
              autosize
              minRows={1}
              maxLength={1000}
            />
          </SimpleGrid>
        </Paper>

        <Stack gap="sm">
          <Title order={2} size="h4">
            Rules
          </Title>
          <Text size="sm">
            A rule allows or denies actions, on every group or only on groups its conditions match. Deny beats allow.
          </Text>
          {draft.rules.map((rule, index) => (
            <RuleCard
              key={index}
              rule={rule}
              index={index}
              catalogue={catalogue}
              lines={touched ? (check.ruleLines[index] ?? []) : []}
              disabled={readOnly}
              onChange={(next) => update({ rules: draft.rules.map((current, i) => (i === index ? next : current)) })}
              onRemove={() => update({ rules: draft.rules.filter((_, i) => i !== index) })}
            />
          ))}
          <Group>
            <Button variant="default" onClick={() => update({ rules: [...draft.rules, EMPTY_RULE] })} disabled={readOnly}>
              Add rule
            </Button>
          </Group>
        </Stack>

        <Paper withBorder p="md">
          <Title order={2} size="h4" mb="sm">
            Data and network
          </Title>
          {readOnly ? (
            // Read-only (system role): plain text reads better than disabled pills, which are faint in dark mode.
            <Stack gap={4}>
              <Text size="sm">
                <strong>Payload types:</strong> {draft.payloadTypes.length === 0 ? 'none' : draft.payloadTypes.map((type) => PAYLOAD_TYPE_LABELS[type]).join(', ')}
              </Text>
              <Text size="sm">
                <strong>CIDR ranges:</strong> {draft.cidrRanges.length === 0 ? 'anywhere' : draft.cidrRanges.join(', ')}
              </Text>
            </Stack>
          ) : (
            <SimpleGrid cols={{ base: 1, md: 2 }}>
              <MultiSelect
                label="Payload types"
                description="The kinds of recording this role may see"
                data={optionsOf(PAYLOAD_TYPES, PAYLOAD_TYPE_LABELS)}
                value={draft.payloadTypes}
                onChange={(value) => update({ payloadTypes: value as PayloadType[] })}
                error={errors.field.payloadTypes}
                clearable
              />
              <TagsInput
                label="CIDR ranges"
                description="The role applies only from these addresses (e.g. 10.0.0.0/8); empty: anywhere"
                value={draft.cidrRanges}
                onChange={(value) => update({ cidrRanges: value })}
                splitChars={[',', ' ']}
                error={errors.field.cidrRanges}
                clearable
              />
            </SimpleGrid>
          )}
        </Paper>

        <Paper withBorder p="md">
          <Title order={2} size="h4" mb="sm">
            Alerts
          </Title>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            {ALERT_FLAGS.map(([flag, label]) => (
              <Checkbox
                key={flag}
                label={label}
                checked={draft.alertPermissions[flag]}
                onChange={(event) => update({ alertPermissions: { ...draft.alertPermissions, [flag]: event.currentTarget.checked } })}
                disabled={readOnly}
              />
            ))}
            <Checkbox
              label="Alertable: holders of this role are notified of alerts"
              checked={draft.isAlertable}
              onChange={(event) => update({ isAlertable: event.currentTarget.checked })}
              disabled={readOnly}
            />
          </SimpleGrid>
        </Paper>

        <Paper withBorder p="md">
          <Title order={2} size="h4" mb="sm">
            What this role allows
          </Title>
          <Text size="sm" mb="xs" aria-live="polite">
            {summary.allowed.length} of {summary.total} actions are allowed on at least some groups (evaluated across every rule; deny beats allow).
          </Text>
          {summary.allowed.length > 0 && (
            <Spoiler maxHeight={72} showLabel="Show all" hideLabel="Show fewer">
              <Text size="sm">{summary.allowed.join(', ')}</Text>
            </Spoiler>
          )}
          <DenialList denials={summary.denials} />
        </Paper>

        <ErrorLines title={save.error ? 'The server refused the role' : undefined} lines={errors.general} />
        {errors.field.alerts !== undefined && (
          <Text size="sm" c="red" role="alert">
            Alerts: {errors.field.alerts}
          </Text>
        )}
        {!systemRole && !canSave.allowed && (
          <Text size="sm" c="dimmed" data-testid="role-read-only-reason">
            {canSave.reason}
          </Text>
        )}
        {!systemRole && canSave.allowed && reach.lockedReason !== undefined && (
          <Text size="sm" c="dimmed" data-testid="role-read-only-reason">
            {reach.lockedReason}
          </Text>
        )}
        {!readOnly && reach.beyond.length > 0 && (
          <ErrorLines title="Beyond your own roles: you may grant only what your roles allow" lines={reach.beyond} />
        )}
        {!readOnly && (
          <Group justify="flex-end">
            {touched && problems > 0 && <Text size="sm">{problems} {problems === 1 ? 'problem' : 'problems'} to fix before saving</Text>}
            <PermittedButton
              action={putRole.action}
              type="submit"
              loading={save.isPending}
              disabled={(touched && problems > 0) || reach.beyond.length > 0}
              title={reach.beyond.length > 0 ? 'This role grants more than your own roles' : undefined}
            >
              {creating ? 'Create role' : 'Save role'}
            </PermittedButton>
          </Group>
        )}
      </Stack>
    </form>
  );
}

/** The allowed actions a deny rule takes away: everywhere (an unconditional deny) or on some groups (its conditions). */
function DenialList({ denials }: { denials: readonly Denial[] }) {
  if (denials.length === 0) return null;
  return (
    <Stack gap={4} mt="sm" data-testid="role-denials">
      <Text size="sm" fw={600}>
        Narrowed by a deny
      </Text>
      {denials.map((denial) => (
        <Text size="sm" key={denial.action}>
          <strong>{denial.action}</strong>:{' '}
          {denial.effect === 'removed'
            ? `allowed by a rule, but denied everywhere by rule ${denial.rules.join(', ')}.`
            : `allowed, except on the groups rule ${denial.rules.join(', ')} denies it on.`}
        </Text>
      ))}
    </Stack>
  );
}
