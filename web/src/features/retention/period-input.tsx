import { NumberInput } from '@mantine/core';
import { describeDays, type Days } from './retention-model.ts';

/**
 * A retention period in whole days; blank means "kept without end". Beneath it the same period in years and months,
 * so 2557 reads as 7 years without arithmetic.
 */
export function PeriodInput({
  label,
  value,
  onChange,
  error,
  readOnly,
}: {
  /** The accessible name, e.g. "Alerts: delete after (days)". */
  label: string;
  value: Days;
  onChange: (value: Days) => void;
  error?: string | undefined;
  readOnly: boolean;
}) {
  return (
    <NumberInput
      aria-label={label}
      value={value}
      onChange={(next) => onChange(typeof next === 'number' ? next : next.trim() === '' ? '' : Number(next))}
      min={0}
      allowDecimal={false}
      allowNegative={false}
      clampBehavior="none"
      thousandSeparator=","
      placeholder="Never"
      suffix=" days"
      hideControls
      readOnly={readOnly}
      variant={readOnly ? 'filled' : 'default'}
      description={describeDays(value)}
      inputWrapperOrder={['input', 'description', 'error']}
      error={error}
      w={150}
    />
  );
}
