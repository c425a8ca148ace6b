import { ActionIcon, Checkbox, Group, SegmentedControl, TextInput } from '@mantine/core';
import type { ConditionDraft } from './condition-draft.ts';

/** One group condition (a role's rule, a supervision policy's scope): include or exclude groups whose name / tag key / tag value match. */
export function ConditionRow({ condition, label, disabled, onChange, onRemove }: {
  condition: ConditionDraft;
  /** "Rule 1 condition 2": prefixes every input's accessible name. */
  label: string;
  disabled: boolean;
  onChange: (next: ConditionDraft) => void;
  onRemove: () => void;
}) {
  const set = <K extends keyof ConditionDraft>(key: K, value: ConditionDraft[K]) => onChange({ ...condition, [key]: value });
  return (
    <Group align="flex-end" gap="xs" wrap="wrap">
      <SegmentedControl
        aria-label={`${label}: include or exclude`}
        size="xs"
        value={condition.mode}
        onChange={(mode) => set('mode', mode === 'exclude' ? 'exclude' : 'include')}
        disabled={disabled}
        data={[
          { value: 'include', label: 'Only groups' },
          { value: 'exclude', label: 'Except groups' },
        ]}
      />
      <TextInput size="xs" label="Group name matches" aria-label={`${label}: group name matches`} placeholder="sales-*" value={condition.names} onChange={(event) => set('names', event.currentTarget.value)} disabled={disabled} w={150} />
      <TextInput size="xs" label="Tag key matches" aria-label={`${label}: tag key matches`} placeholder="region" value={condition.keys} onChange={(event) => set('keys', event.currentTarget.value)} disabled={disabled} w={130} />
      <TextInput size="xs" label="Tag value matches" aria-label={`${label}: tag value matches`} placeholder="north*" value={condition.values} onChange={(event) => set('values', event.currentTarget.value)} disabled={disabled} w={130} />
      <Checkbox size="xs" label="Regex" aria-label={`${label}: patterns are regular expressions`} checked={condition.isRegex} onChange={(event) => set('isRegex', event.currentTarget.checked)} disabled={disabled} mb={6} />
      <ActionIcon variant="default" aria-label={`Remove ${label.toLowerCase()}`} onClick={onRemove} disabled={disabled} mb={2}>
        ×
      </ActionIcon>
    </Group>
  );
}
