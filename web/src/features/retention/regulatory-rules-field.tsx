import { Checkbox, Group, Text } from '@mantine/core';
import { REGULATORY_RULE_NAMES, REGULATORY_RULES, type RegulatoryRule } from '#shared/constants/regulatory-rules.ts';

/**
 * The record-keeping rules the tenant is under, one box each (none ticked: no rule). Each ticked rule sets a floor
 * under the periods it covers, shown beside them; unticking one lowers the floor, which a second person must approve.
 */
export function RegulatoryRulesField({ value, readOnly, onChange }: { value: readonly RegulatoryRule[]; readOnly: boolean; onChange: (rules: RegulatoryRule[]) => void }) {
  return (
    <Checkbox.Group
      label="Regulatory rules"
      description="The rules this firm is under. No period may be shorter than the strictest ticked rule's minimum; removing a rule needs a second approver."
      value={[...value]}
      onChange={(ticked) => onChange(REGULATORY_RULES.filter((rule) => ticked.includes(rule)))}
    >
      <Group mt="xs">
        {REGULATORY_RULES.map((rule) => (
          <Checkbox key={rule} value={rule} label={REGULATORY_RULE_NAMES[rule]} disabled={readOnly} />
        ))}
      </Group>
      {value.length === 0 && (
        <Text size="xs" c="dimmed" mt={4}>
          No rule ticked: no regulatory floor.
        </Text>
      )}
    </Checkbox.Group>
  );
}
