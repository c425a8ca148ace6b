import { Button, Group, Select, Stack } from '@mantine/core';
import { useState } from 'react';
import { SUPERVISION_DISPOSITIONS, type SupervisionDisposition } from '#shared/constants/supervision.ts';
import { SupervisionItemUpdate } from '#shared/contract/entities/supervision.ts';
import { formatIssues } from '#shared/contract/messages.ts';
import { FormErrorSummary, formErrorsFor } from '../../../components/forms/form-errors.tsx';
import { TextareaField, useFormValues } from '../../../components/forms/form-fields.tsx';

export interface CloseValues {
  disposition: SupervisionDisposition | '';
  note: string;
}

export type CloseRequest = {
  action: 'close';
  disposition: SupervisionDisposition;
  note?: string;
};

/** Every disposition but `No issue` needs a note (the contract's rule, shown as a required field before it is sent). */
export const noteRequired = (disposition: SupervisionDisposition | ''): boolean => disposition !== 'No issue';

/**
 * The close request the form's values make, checked by the contract's own schema (so the screen refuses exactly what
 * the server would), or the `body.<field>: message` lines saying what is missing. A blank note is no note.
 */
export function closeRequestOf(values: CloseValues): { request: CloseRequest } | { lines: string[] } {
  const note = values.note.trim();
  const candidate = {
    action: 'close',
    disposition: values.disposition === '' ? undefined : values.disposition,
    ...(note === '' ? {} : { note }),
  };
  const checked = SupervisionItemUpdate.safeParse(candidate);
  if (!checked.success) return { lines: formatIssues(checked.error, 'body') };
  return { request: checked.data as CloseRequest };
}

const PATHS = { disposition: 'body.disposition', note: 'body.note' } as const;

/**
 * The disposition form that closes an item (one item or a bulk selection): the disposition, and the note, marked
 * required unless the disposition is `No issue`. Refusals, the form's own or the server's, show under their field.
 */
export function CloseForm({
  busy,
  error,
  submitLabel,
  onSubmit,
  onCancel,
}: {
  busy: boolean;
  /** The server's refusal of the last attempt, if any. */
  error: unknown;
  submitLabel: string;
  onSubmit: (request: CloseRequest) => void;
  onCancel?: () => void;
}) {
  const form = useFormValues<CloseValues>({ disposition: '', note: '' });
  const [localLines, setLocalLines] = useState<string[]>([]);
  const errors = formErrorsFor({ localLines, error, paths: PATHS });
  const submit = () => {
    const made = closeRequestOf(form.values);
    if ('lines' in made) {
      setLocalLines(made.lines);
      return;
    }
    setLocalLines([]);
    onSubmit(made.request);
  };
  return (
    <form
      aria-label="Close with a disposition"
      // The form checks itself and says what is missing under the field, in the API's words (no browser bubble).
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <Stack gap="sm">
        <FormErrorSummary lines={errors.general} />
        <Select
          label="Disposition"
          placeholder="What did you find?"
          required
          data={[...SUPERVISION_DISPOSITIONS]}
          value={form.values.disposition === '' ? null : form.values.disposition}
          onChange={(value) => form.set('disposition', (value ?? '') as SupervisionDisposition | '')}
          error={errors.field.disposition}
          comboboxProps={{ withinPortal: true }}
        />
        <TextareaField
          form={{ ...form, errors: errors.field }}
          name="note"
          label="Note"
          description={noteRequired(form.values.disposition) ? 'What you found and what was done.' : 'Optional for No issue.'}
          required={noteRequired(form.values.disposition)}
          autosize
          minRows={3}
          maxLength={4000}
        />
        <Group justify="flex-end">
          {onCancel !== undefined && (
            <Button variant="default" onClick={onCancel}>
              Cancel
            </Button>
          )}
          <Button type="submit" loading={busy}>
            {submitLabel}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
