import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import type { SupervisionItem } from '#shared/contract/entities/supervision.ts';
import { PermittedButton } from '../../../components/access/permitted-button.tsx';
import { FormErrorSummary, formErrorsFor, notifySaved } from '../../../components/forms/form-errors.tsx';
import { TextareaField, TextField, useFormValues } from '../../../components/forms/form-fields.tsx';
import { useCan } from '../../../lib/use-can.ts';
import { useUpdateSupervisionItem } from '../api/update-item.ts';
import { CloseForm, type CloseRequest } from './close-form.tsx';

type Dialog = 'assign' | 'escalate' | 'reopen' | undefined;

/** Which acts an item's state offers (the server decides; these are the ones that can apply). */
export function actionsFor(item: Pick<SupervisionItem, 'state' | 'assignee'>) {
  const open = item.state !== 'Closed';
  return {
    claim: item.state === 'Open' || item.state === 'Escalated',
    release: open && item.assignee !== undefined,
    assign: open,
    escalate: item.state === 'Open' || item.state === 'Claimed',
    close: open,
    reopen: item.state === 'Closed',
  };
}

/**
 * What a reviewer can do to the item: claim, release, assign, escalate, close with a disposition, reopen with a
 * reason. Every button needs `supervision:ReviewItem`. When the item is about the reviewer's own communications,
 * Close is not offered and the panel says why (the server refuses it with a 403 as well).
 */
export function ItemActions({ item, isOwn }: { item: SupervisionItem; isOwn: boolean }) {
  const mayReview = useCan('supervision:ReviewItem');
  if (!mayReview.allowed) return <Text c="dimmed">{mayReview.reason}</Text>;
  return <ReviewActions item={item} isOwn={isOwn} />;
}

function ReviewActions({ item, isOwn }: { item: SupervisionItem; isOwn: boolean }) {
  const update = useUpdateSupervisionItem();
  const [dialog, setDialog] = useState<Dialog>(undefined);
  const offered = actionsFor(item);
  const params = { item_reference: item.item_reference };
  const act = (body: Parameters<typeof update.mutate>[0]['body'], done: string, after?: () => void) =>
    update.mutate(
      { params, body },
      {
        onSuccess: () => {
          notifySaved(done);
          after?.();
        },
      },
    );
  const openDialog = (next: Dialog) => {
    update.reset();
    setDialog(next);
  };

  return (
    <Stack gap="sm">
      <Group gap="xs">
        {offered.claim && (
          <PermittedButton
            action="supervision:ReviewItem"
            onClick={() => act({ action: 'claim' }, 'Claimed.')}
            loading={update.isPending && update.variables?.body.action === 'claim'}
          >
            Claim
          </PermittedButton>
        )}
        {offered.release && (
          <PermittedButton action="supervision:ReviewItem" variant="default" onClick={() => act({ action: 'release' }, 'Released.')}>
            Release
          </PermittedButton>
        )}
        {offered.assign && (
          <PermittedButton action="supervision:ReviewItem" variant="default" onClick={() => openDialog('assign')}>
            Assign…
          </PermittedButton>
        )}
        {offered.escalate && (
          <PermittedButton action="supervision:ReviewItem" variant="default" color="orange" onClick={() => openDialog('escalate')}>
            Escalate…
          </PermittedButton>
        )}
        {offered.reopen && (
          <PermittedButton action="supervision:ReviewItem" variant="default" onClick={() => openDialog('reopen')}>
            Reopen…
          </PermittedButton>
        )}
      </Group>
      {dialog === undefined && update.error !== null && (
        <Alert variant="light" color="red" title="Refused" role="alert">
          {update.error.message}
        </Alert>
      )}
      {offered.close &&
        (isOwn ? (
          <Alert variant="light" color="yellow" title="You cannot close this item">
            It is about your own communications (the supervised person has your e-mail address). Another reviewer must close it.
          </Alert>
        ) : (
          <CloseSection item={item} />
        ))}
      <Modal opened={dialog === 'assign'} onClose={() => setDialog(undefined)} title="Assign the item" closeButtonProps={{ 'aria-label': 'Close the dialog' }}>
        <AssignForm
          busy={update.isPending}
          error={update.error}
          onCancel={() => setDialog(undefined)}
          onSubmit={(assignee) => act({ action: 'assign', assignee }, 'Assigned.', () => setDialog(undefined))}
        />
      </Modal>
      <Modal opened={dialog === 'escalate'} onClose={() => setDialog(undefined)} title="Escalate the item" closeButtonProps={{ 'aria-label': 'Close the dialog' }}>
        <NoteForm
          label="Note"
          required={false}
          submitLabel="Escalate"
          busy={update.isPending}
          error={update.error}
          onCancel={() => setDialog(undefined)}
          onSubmit={(note) => act({ action: 'escalate', ...(note === undefined ? {} : { note }) }, 'Escalated.', () => setDialog(undefined))}
        />
      </Modal>
      <Modal opened={dialog === 'reopen'} onClose={() => setDialog(undefined)} title="Reopen the item" closeButtonProps={{ 'aria-label': 'Close the dialog' }}>
        <NoteForm
          label="Reason"
          required
          submitLabel="Reopen"
          busy={update.isPending}
          error={update.error}
          onCancel={() => setDialog(undefined)}
          onSubmit={(note) => act({ action: 'reopen', note: note ?? '' }, 'Reopened.', () => setDialog(undefined))}
        />
      </Modal>
    </Stack>
  );
}

/** The disposition form, on the page itself: closing is the review's outcome, not a side act. */
function CloseSection({ item }: { item: SupervisionItem }) {
  const close = useUpdateSupervisionItem();
  return (
    <div>
      <Text fw={600} mb="xs">
        Close with a disposition
      </Text>
      {/* A new form per version: a reopened item starts its next close blank. */}
      <CloseForm
        key={item.item_version}
        busy={close.isPending}
        error={close.error}
        submitLabel="Close item"
        onSubmit={(request: CloseRequest) => close.mutate({ params: { item_reference: item.item_reference }, body: request }, { onSuccess: () => notifySaved('Closed.') })}
      />
    </div>
  );
}

function AssignForm({ busy, error, onSubmit, onCancel }: { busy: boolean; error: unknown; onSubmit: (assignee: string) => void; onCancel: () => void }) {
  const form = useFormValues({ assignee: '' });
  const [localLines, setLocalLines] = useState<string[]>([]);
  const errors = formErrorsFor({
    localLines,
    error,
    paths: { assignee: 'body.assignee' },
  });
  return (
    <form
      // The form checks itself and says what is missing under the field, in the API's words (no browser bubble).
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        const assignee = form.values.assignee.trim();
        if (assignee === '') return setLocalLines(['body.assignee: Name the portal user to assign it to']);
        setLocalLines([]);
        onSubmit(assignee);
      }}
    >
      <Stack gap="sm">
        <FormErrorSummary lines={errors.general} />
        <TextField
          form={{ ...form, errors: errors.field }}
          name="assignee"
          label="Portal user"
          description="The reviewer's portal user reference, as your sign-in provider names them (Claim assigns it to you)."
          required
          maxLength={255}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" loading={busy}>
            Assign
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function NoteForm(props: {
  label: string;
  required: boolean;
  submitLabel: string;
  busy: boolean;
  error: unknown;
  onSubmit: (note: string | undefined) => void;
  onCancel: () => void;
}) {
  const form = useFormValues({ note: '' });
  const [localLines, setLocalLines] = useState<string[]>([]);
  const errors = formErrorsFor({
    localLines,
    error: props.error,
    paths: { note: 'body.note' },
  });
  return (
    <form
      // The form checks itself and says what is missing under the field, in the API's words (no browser bubble).
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        const note = form.values.note.trim();
        if (props.required && note === '') return setLocalLines([`body.note: A ${props.label.toLowerCase()} is required`]);
        setLocalLines([]);
        props.onSubmit(note === '' ? undefined : note);
      }}
    >
      <Stack gap="sm">
        <FormErrorSummary lines={errors.general} />
        <TextareaField form={{ ...form, errors: errors.field }} name="note" label={props.label} required={props.required} autosize minRows={3} maxLength={4000} />
        <Group justify="flex-end">
          <Button variant="default" onClick={props.onCancel}>
            Cancel
          </Button>
          <Button type="submit" loading={props.busy}>
            {props.submitLabel}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
