import { Alert, Button, Checkbox, Group, Paper, SegmentedControl, Stack, Text, Title } from '@mantine/core';
import { ActionPicker } from './action-picker.tsx';
import { ConditionRow } from '../../components/access/condition-row.tsx';
import { ErrorLines } from '../../components/data/error-lines.tsx';
import { actionsCovered, explainRule } from './explain-rule.ts';
import { EMPTY_CONDITION } from '../../components/access/condition-draft.ts';
import { isPattern, type CatalogueEntry, type RuleDraft } from './role-model.ts';

/** One rule of the permission editor: effect, actions, group conditions, its live problems and what it grants. */
export function RuleCard({ rule, index, catalogue, lines, disabled, onChange, onRemove }: {
  rule: RuleDraft;
  index: number;
  catalogue: readonly CatalogueEntry[];
  lines: readonly string[];
  disabled: boolean;
  onChange: (next: RuleDraft) => void;
  onRemove: () => void;
}) {
  const name = `Rule ${index + 1}`;
  const set = <K extends keyof RuleDraft>(key: K, value: RuleDraft[K]) => onChange({ ...rule, [key]: value });
  const patterns = rule.actions.some((action) => isPattern(action, rule.isRegex));
  const covered = patterns ? actionsCovered(rule, catalogue) : [];

  return (
    <Paper withBorder p="md" component="section" aria-label={name}>
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={3} size="h5">
            {name}
          </Title>
          <Button size="xs" variant="default" onClick={onRemove} disabled={disabled} aria-label={`Remove ${name.toLowerCase()}`}>
            Remove rule
          </Button>
        </Group>
        <Group gap="md" align="center">
          <SegmentedControl
            aria-label={`${name} effect`}
            value={rule.effect}
            onChange={(effect) => set('effect', effect === 'deny' ? 'deny' : 'allow')}
            disabled={disabled}
            data={[
              { value: 'allow', label: 'Allow' },
              { value: 'deny', label: 'Deny' },
            ]}
          />
          <Checkbox
            label="Actions are regular expressions (RE2)"
            checked={rule.isRegex}
            onChange={(event) => set('isRegex', event.currentTarget.checked)}
            disabled={disabled}
          />
        </Group>
        {disabled ? (
          <Text size="sm">
            <strong>Actions:</strong> {rule.actions.join(', ')}
          </Text>
        ) : (
          <ActionPicker catalogue={catalogue} value={rule.actions} onChange={(actions) => set('actions', actions)} label={`${name} actions`} />
        )}
        {patterns && (
          <Text size="sm">
            {covered.length === 0
              ? 'The patterns match no action of the catalogue.'
              : `The patterns cover ${covered.length} catalogue ${covered.length === 1 ? 'action' : 'actions'}: ${covered.join(', ')}.`}
          </Text>
        )}
        <Text size="sm" fw={500}>
          Groups {rule.conditions.length === 0 ? '(none: the rule applies to every group)' : '(all matchers of a condition must hold)'}
        </Text>
        {rule.conditions.map((condition, c) => (
          <ConditionRow
            key={c}
            condition={condition}
            label={`${name} condition ${c + 1}`}
            disabled={disabled}
            onChange={(next) => set('conditions', rule.conditions.map((current, i) => (i === c ? next : current)))}
            onRemove={() => set('conditions', rule.conditions.filter((_, i) => i !== c))}
          />
        ))}
        <Group>
          <Button size="xs" variant="default" onClick={() => set('conditions', [...rule.conditions, EMPTY_CONDITION])} disabled={disabled}>
            Add group condition
          </Button>
        </Group>
        <Alert variant="default" title="What this rule does" aria-live="polite">
          {explainRule(rule)}
        </Alert>
        <ErrorLines title={`${name} has problems`} lines={lines} />
      </Stack>
    </Paper>
  );
}
