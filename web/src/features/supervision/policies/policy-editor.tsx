import { Button, Checkbox, Group, List, MultiSelect, NumberInput, Paper, SimpleGrid, Stack, Switch, Text, Textarea, TextInput, Title } from '@mantine/core';
import { useMemo, useState, type FormEvent } from 'react';
import { PAYLOAD_TYPES, type PayloadType } from '#shared/constants/payloads.ts';
import { SUPERVISION_POLICY_KINDS, SUPERVISION_REVIEW_DAYS_MAX, SUPERVISION_SAMPLE_MINIMUM_MAX, SUPERVISION_TERMS_MAX } from '#shared/constants/supervision.ts';
import type { SupervisionPolicy } from '#shared/contract/entities/supervision.ts';
import { EMPTY_CONDITION } from '../../../components/access/condition-draft.ts';
import { ConditionRow } from '../../../components/access/condition-row.tsx';
import { PermittedButton } from '../../../components/access/permitted-button.tsx';
import { ErrorLines, errorLinesOf } from '../../../components/data/error-lines.tsx';
import { SegmentedField } from '../../../components/forms/form-fields.tsx';
import { formErrorsOf } from '../../../lib/form-errors.ts';
import { PAYLOAD_TYPE_LABELS } from '../../../lib/labels.ts';
import { useCan } from '../../../lib/use-can.ts';
import { createPolicy, useCreatePolicy } from '../api/create-policy.ts';
import { usePolicyChoices } from '../api/list-policies.ts';
import { useDeviceUserSearch } from '../api/search-device-users.ts';
import { updatePolicy, useUpdatePolicy } from '../api/update-policy.ts';
import { PolicyPreview } from './policy-preview.tsx';
import { POLICY_KIND_LABELS } from './policy-labels.ts';
import { checkPolicy, serverTermLines, typesKeptFor, typesReadBy, type PolicyDraft, type TermLineProblem } from './policy-model.ts';
import { TermTester } from './term-tester.tsx';

const FIELD_PATHS = {
  reference: 'params.policy_reference',
  kind: 'body.kind',
  description: 'body.description',
  conditions: 'body.scope.group_conditions',
  deviceUsers: 'body.scope.device_user_references',
  payloadTypes: 'body.scope.payload_types',
  terms: 'body.terms',
  samplePercent: 'body.sample_percent',
  sampleMinimum: 'body.sample_minimum',
  reviewDays: 'body.review_days',
} as const;

/**
 * The policy editor of the create and detail pages: kind, description, enabled, scope (group conditions as a role's,
 * device users, payload types), terms one a line checked live line by line, the sample share and minimum, days to
 * review; the term tester and the preview work on the draft as it stands. Saves with POST (create) or PUT.
 */
export function PolicyEditor({ initial, creating, stored, onSaved }: {
  initial: PolicyDraft;
  creating: boolean;
  stored?: SupervisionPolicy | undefined;
  onSaved: (policy: SupervisionPolicy) => void;
}) {
  const canSave = useCan((creating ? createPolicy : updatePolicy).action);
  const readOnly = !canSave.allowed;
  const [draft, setDraft] = useState<PolicyDraft>(initial);
  const [touched, setTouched] = useState(false);
  const create = useCreatePolicy();
  const update = useUpdatePolicy();
  const save = creating ? create : update;
  const check = useMemo(() => checkPolicy(draft, { checkReference: creating }), [draft, creating]);
  const choices = usePolicyChoices();
  const set = (next: Partial<PolicyDraft>) => {
    setTouched(true);
    setDraft((previous) => ({ ...previous, ...next }));
  };

  const serverLines = save.error ? errorLinesOf(save.error) : [];
  const server = serverTermLines(serverLines, check.terms);
  const errors = formErrorsOf(touched && check.lines.length > 0 ? check.lines : server.rest, FIELD_PATHS);
  const lineProblems: TermLineProblem[] = check.termProblems.length > 0 ? check.termProblems : server.perLine;
  const problems = check.lines.length + check.termProblems.length;
  const usableTerms = useMemo(() => {
    const bad = new Set(check.termProblems.map((problem) => problem.line));
    return check.terms.filter((term) => !bad.has(term.line)).map((term) => term.term);
  }, [check]);
  const reference = draft.reference.trim();
  const sampling = draft.kind === 'Sampling';

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (check.body === undefined) return;
    save.mutate({ params: { policy_reference: reference }, body: check.body }, { onSuccess: onSaved });
  };

  return (
    <Stack gap="lg">
      <form onSubmit={submit} noValidate aria-label="Policy">
        <Stack gap="lg">
          <Paper withBorder p="md">
            <Title order={2} size="h4" mb="sm">
              Policy
            </Title>
            <Stack gap="sm">
              <SimpleGrid cols={{ base: 1, md: 2 }}>
                <TextInput
                  label="Policy name"
                  description="3 to 60 characters; cannot be changed later"
                  value={draft.reference}
                  onChange={(event) => set({ reference: event.currentTarget.value })}
                  disabled={!creating || readOnly}
                  error={errors.field.reference}
                  required
                />
                <Textarea
                  label="Description"
                  value={draft.description}
                  onChange={(event) => set({ description: event.currentTarget.value })}
                  error={errors.field.description}
                  disabled={readOnly}
                  autosize
                  minRows={1}
                  maxLength={1000}
                />
              </SimpleGrid>
              {readOnly ? (
                <Text size="sm">
                  <strong>Kind:</strong> {POLICY_KIND_LABELS[draft.kind]}
                </Text>
              ) : (
                <SegmentedField
                  label="Kind"
                  value={draft.kind}
                  options={SUPERVISION_POLICY_KINDS.map((kind) => ({ value: kind, label: POLICY_KIND_LABELS[kind] }))}
                  onChange={(kind) => set({ kind, payloadTypes: typesKeptFor(kind, draft.payloadTypes) })}
                  error={errors.field.kind}
                />
              )}
              <Switch label="Enabled: the policy reads new recordings as they are processed" checked={draft.isEnabled} onChange={(event) => set({ isEnabled: event.currentTarget.checked })} disabled={readOnly} />
            </Stack>
          </Paper>

          <ScopeFields draft={draft} set={set} readOnly={readOnly} errors={errors.field} />

          {sampling ? (
            <Paper withBorder p="md">
              <Title order={2} size="h4" mb="sm">
                Sampling
              </Title>
              <SimpleGrid cols={{ base: 1, md: 3 }}>
                <TextInput
                  label="Share of each person's recordings a day (%)"
                  description="0.1 to 100, to a tenth; chosen by a keyed hash, so the same recordings on a re-run"
                  value={draft.samplePercent}
                  onChange={(event) => set({ samplePercent: event.currentTarget.value })}
                  error={errors.field.samplePercent}
                  disabled={readOnly}
                  inputMode="decimal"
                  required
                />
                <NumberInput
                  label="At least, a person a day"
                  description="Topped up by the daily job when the share picked fewer"
                  value={draft.sampleMinimum}
                  onChange={(value) => set({ sampleMinimum: typeof value === 'number' ? value : Number(value) || 0 })}
                  min={0}
                  max={SUPERVISION_SAMPLE_MINIMUM_MAX}
                  allowDecimal={false}
                  error={errors.field.sampleMinimum}
                  disabled={readOnly}
                />
                <ReviewDays draft={draft} set={set} readOnly={readOnly} error={errors.field.reviewDays} />
              </SimpleGrid>
            </Paper>
          ) : (
            <Paper withBorder p="md">
              <Title order={2} size="h4" mb="sm">
                Terms
              </Title>
              <Stack gap="sm">
                <Text size="sm" c="dimmed">
                  One term a line, matched case-insensitively on whole words: a phrase (<code>off the record</code>), a prefix (<code>guarant*</code>),{' '}
                  <code>A NEAR/n B</code> (at most n words apart, either order) or <code>A NOT B</code>. Every other character is literal.
                </Text>
                <Textarea
                  label={`Terms (${check.terms.length} of at most ${SUPERVISION_TERMS_MAX})`}
                  value={draft.termsText}
                  onChange={(event) => set({ termsText: event.currentTarget.value })}
                  error={errors.field.terms}
                  disabled={readOnly}
                  autosize
                  minRows={4}
                  maxRows={16}
                  styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
                  required
                />
                {lineProblems.length > 0 && (
                  <div role="alert" data-testid="term-line-problems">
                    <Text size="sm" fw={600} c="red">
                      {lineProblems.length === 1 ? 'One line has a problem' : `${lineProblems.length} lines have problems`}
                    </Text>
                    <List size="sm" spacing={2}>
                      {lineProblems.map((problem) => (
                        <List.Item key={`${problem.line}:${problem.problem}`}>
                          Line {problem.line} (“{problem.term.length > 60 ? `${problem.term.slice(0, 59)}…` : problem.term}”): {problem.problem}
                        </List.Item>
                      ))}
                    </List>
                  </div>
                )}
                {draft.kind === 'Lexicon' && (
                  <SimpleGrid cols={{ base: 1, md: 3 }}>
                    <ReviewDays draft={draft} set={set} readOnly={readOnly} error={errors.field.reviewDays} />
                  </SimpleGrid>
                )}
              </Stack>
            </Paper>
          )}

          <ErrorLines title={save.error ? 'The server refused the policy' : undefined} lines={errors.general} />
          {readOnly && (
            <Text size="sm" c="dimmed" data-testid="policy-read-only-reason">
              {canSave.reason}
            </Text>
          )}
          {!readOnly && (
            <Group justify="flex-end">
              {touched && problems > 0 && <Text size="sm">{problems} {problems === 1 ? 'problem' : 'problems'} to fix before saving</Text>}
              <PermittedButton action={(creating ? createPolicy : updatePolicy).action} type="submit" loading={save.isPending} disabled={touched && problems > 0}>
                {creating ? 'Create policy' : 'Save policy'}
              </PermittedButton>
            </Group>
          )}
        </Stack>
      </form>

      {!sampling && (
        <TermTester reference={reference} kind={draft.kind === 'Ignore' ? 'Ignore' : 'Lexicon'} terms={usableTerms} others={choices.policies} othersPartial={choices.isPartial} />
      )}
      {draft.kind !== 'Ignore' && (
        <PolicyPreview
          reference={creating ? reference : (stored?.policy_reference ?? reference)}
          body={check.body}
          blocked={check.body === undefined ? 'Fix the policy’s problems to preview it.' : undefined}
        />
      )}
    </Stack>
  );
}

type SetDraft = (next: Partial<PolicyDraft>) => void;
type FieldErrors = Partial<Record<keyof typeof FIELD_PATHS, string>>;

function ReviewDays({ draft, set, readOnly, error }: { draft: PolicyDraft; set: SetDraft; readOnly: boolean; error: string | undefined }) {
  return (
    <NumberInput
      label="Days to review"
      description="An item not closed by then is overdue"
      value={draft.reviewDays}
      onChange={(value) => set({ reviewDays: typeof value === 'number' ? value : Number(value) || 0 })}
      min={1}
      max={SUPERVISION_REVIEW_DAYS_MAX}
      allowDecimal={false}
      error={error}
      disabled={readOnly}
    />
  );
}

/** Whose recordings the policy reads: group conditions (as a role's), named device users, payload types. */
function ScopeFields({ draft, set, readOnly, errors }: { draft: PolicyDraft; set: SetDraft; readOnly: boolean; errors: FieldErrors }) {
  const [search, setSearch] = useState('');
  const users = useDeviceUserSearch(search, !readOnly);
  const options = (users.data && 'data' in users.data ? users.data.data : []).map((user) => {
    const name = [user.first_name, user.surname].filter(Boolean).join(' ');
    return { value: user.device_user_reference, label: `${user.device_user_reference}${name ? ` (${name})` : ''}` };
  });
  // Chosen users stay among the options while the search moves on, so the field still shows them.
  for (const chosen of draft.deviceUsers) if (!options.some((option) => option.value === chosen)) options.unshift({ value: chosen, label: chosen });
  const readable = typesReadBy(draft.kind);
  return (
    <Paper withBorder p="md">
      <Title order={2} size="h4" mb="sm">
        Scope
      </Title>
      <Stack gap="sm">
        <Text size="sm">
          Groups {draft.conditions.length === 0 ? '(none: every group)' : '(all matchers of a condition must hold; an excluding condition wins)'}. With no groups and no
          device users, the policy reads everyone recorded.
        </Text>
        {draft.conditions.map((condition, index) => (
          <ConditionRow
            key={index}
            condition={condition}
            label={`Scope condition ${index + 1}`}
            disabled={readOnly}
            onChange={(next) => set({ conditions: draft.conditions.map((current, i) => (i === index ? next : current)) })}
            onRemove={() => set({ conditions: draft.conditions.filter((_, i) => i !== index) })}
          />
        ))}
        {errors.conditions !== undefined && (
          <Text size="sm" c="red" role="alert">
            Groups: {errors.conditions}
          </Text>
        )}
        <Group>
          <Button size="xs" variant="default" onClick={() => set({ conditions: [...draft.conditions, EMPTY_CONDITION] })} disabled={readOnly}>
            Add group condition
          </Button>
        </Group>
        <MultiSelect
          label="Device users"
          description="Named people, besides the groups. Type two letters to search by reference, name or e-mail."
          data={options}
          value={draft.deviceUsers}
          onChange={(deviceUsers) => set({ deviceUsers })}
          searchable
          searchValue={search}
          onSearchChange={setSearch}
          filter={({ options: all }) => all}
          nothingFoundMessage={users.isFetching ? 'Searching…' : 'No device user matches'}
          error={errors.deviceUsers}
          disabled={readOnly}
          maxValues={100}
          clearable
        />
        <Checkbox.Group
          label="Payload types"
          description={draft.kind === 'Sampling' ? 'A sampling policy picks calls, interviews, photos and videos.' : "A lexicon reads messages' text and the notes of interviews, photos and videos."}
          value={draft.payloadTypes}
          onChange={(value) => set({ payloadTypes: value as PayloadType[] })}
          error={errors.payloadTypes}
        >
          <Group gap="md" mt={4}>
            {PAYLOAD_TYPES.filter((type) => readable.includes(type)).map((type) => (
              <Checkbox key={type} value={type} label={PAYLOAD_TYPE_LABELS[type]} disabled={readOnly} />
            ))}
          </Group>
        </Checkbox.Group>
      </Stack>
    </Paper>
  );
}
