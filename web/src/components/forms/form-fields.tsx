import { SegmentedControl, Text, Textarea, TextInput, type TextareaProps, type TextInputProps } from '@mantine/core';
import { useCallback, useId, useState, type ReactNode } from 'react';

/** Sets one value of a form's values, leaving the others as they are. */
export type SetFormValue<V> = <K extends keyof V>(key: K, value: V[K]) => void;

/**
 * What a field component reads from its form: the values, the setter and the message under each field
 * (`formErrorsFor(...).field`, from the form's own check or the API's `path: message` lines).
 */
export interface FormBinding<V> {
  values: V;
  set: SetFormValue<V>;
  errors: Partial<Record<keyof V, string>>;
}

/** A form's values, held as one object, and the setter the field components take. */
export function useFormValues<V extends object>(initial: V | (() => V)): { values: V; set: SetFormValue<V> } {
  const [values, setValues] = useState<V>(initial);
  const set = useCallback<SetFormValue<V>>((key, value) => setValues((previous) => ({ ...previous, [key]: value })), []);
  return { values, set };
}

/** The names of the form's text values (the ones a text input can hold). */
type TextKey<V> = { [K in keyof V]: V[K] extends string ? K : never }[keyof V];

/** What a bound field takes besides Mantine's own props; `form` here is the form's binding, not the HTML attribute. */
type Bound<V, P> = Omit<P, 'value' | 'onChange' | 'error' | 'name' | 'form'> & { form: FormBinding<V>; name: TextKey<V> };

/**
 * A text input bound to one of the form's values: its label, description and required marker (Mantine's asterisk)
 * as given, its value and the message under it from the form.
 *
 * @example
 * <TextField form={{ values, set, errors: errors.field }} name="issuer" label="Token issuer" required />
 */
export function TextField<V>({ form, name, ...input }: Bound<V, TextInputProps>) {
  return (
    <TextInput
      {...input}
      value={form.values[name] as string}
      onChange={(event) => form.set(name, event.currentTarget.value as V[TextKey<V>])}
      error={form.errors[name]}
    />
  );
}

/** A multi-line text input bound to one of the form's values, as TextField. */
export function TextareaField<V>({ form, name, ...input }: Bound<V, TextareaProps>) {
  return (
    <Textarea
      {...input}
      value={form.values[name] as string}
      onChange={(event) => form.set(name, event.currentTarget.value as V[TextKey<V>])}
      error={form.errors[name]}
    />
  );
}

/**
 * A labelled segmented choice: Mantine's SegmentedControl has no label (nor error) of its own, so the label is a text
 * the control names as its label (aria-labelledby), and a message under it shows as an alert.
 */
export function SegmentedField<T extends string>({
  id,
  label,
  value,
  options,
  onChange,
  error,
}: {
  /** The label's element id; one is made up when not given. */
  id?: string;
  label: ReactNode;
  value: T;
  options: readonly { value: T; label: string }[];
  onChange: (value: T) => void;
  error?: ReactNode;
}) {
  const madeUp = useId();
  const labelId = id ?? madeUp;
  return (
    <div>
      <Text size="sm" fw={500} id={labelId} mb={4}>
        {label}
      </Text>
      <SegmentedControl aria-labelledby={labelId} value={value} onChange={(next) => onChange(next as T)} data={[...options]} />
      {error !== undefined && (
        <Text size="xs" c="red" role="alert">
          {error}
        </Text>
      )}
    </div>
  );
}
