import { Alert, TextInput } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import { useEffect, useState } from 'react';
import { invertedRange } from '../../lib/search-params.ts';

/**
 * A text filter that types freely and applies (to the URL, so the list refetches) 400 ms after the last keystroke,
 * rather than calling the API on every letter. A change of the URL from elsewhere (back button, "Clear") shows.
 */
export function DebouncedTextFilter({
  label,
  value,
  onApply,
  placeholder,
  maxLength = 255,
}: {
  label: string;
  value: string | undefined;
  onApply: (value: string | undefined) => void;
  placeholder?: string;
  maxLength?: number;
}) {
  const [text, setText] = useState(value ?? '');
  useEffect(() => setText(value ?? ''), [value]);
  const apply = useDebouncedCallback((next: string) => onApply(next.trim() === '' ? undefined : next.trim()), 400);
  return (
    <TextInput
      label={label}
      value={text}
      placeholder={placeholder}
      maxLength={maxLength}
      onChange={(event) => {
        setText(event.currentTarget.value);
        apply(event.currentTarget.value);
      }}
    />
  );
}

/** Said before the API is asked: a range that ends before it starts lists nothing and the API refuses it. */
export function InvertedRangeNotice({ from, to }: { from: string | undefined; to: string | undefined }) {
  if (!invertedRange(from, to)) return null;
  return (
    <Alert color="yellow" title="Check the dates" role="alert">
      The start date is after the end date.
    </Alert>
  );
}
