import { notifications } from '@mantine/notifications';
import { ErrorLines } from '../data/error-lines.tsx';
import { errorLinesOf, formErrorsOf, type FieldPaths, type FormErrors } from '../../lib/form-errors.ts';

/**
 * The errors a form shows, from its own check (`localLines`, preferred while present) or its mutation's failure.
 * Spread `errors.field.x` into the matching input's `error` prop and render `<FormErrorSummary lines={errors.general} />`
 * above the form for lines that name no field.
 *
 * @example
 * const errors = formErrorsFor({ localLines, error: save.error, paths: { group: 'body.group', reference: 'params.group_reference' } });
 * <FormErrorSummary lines={errors.general} />
 * <TextInput label="Group" error={errors.field.group} … />
 */
export function formErrorsFor<F extends string>({
  localLines = [],
  error,
  paths,
}: {
  localLines?: readonly string[];
  error?: unknown;
  paths: FieldPaths<F>;
}): FormErrors<F> {
  const lines = localLines.length > 0 ? localLines : error ? errorLinesOf(error) : [];
  return formErrorsOf(lines, paths);
}

/** The lines that name no field of the form, above the form (nothing when there are none). */
export function FormErrorSummary({ lines }: { lines: readonly string[] }) {
  return <ErrorLines lines={lines} />;
}

/** Confirms a change that worked, the same way on every screen. */
export function notifySaved(message: string): void {
  notifications.show({ message, color: 'green', autoClose: 4000, closeButtonProps: { 'aria-label': 'Close notification' } });
}
