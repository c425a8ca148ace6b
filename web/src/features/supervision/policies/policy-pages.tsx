import { Alert, Loader, Stack } from '@mantine/core';
import { CatchBoundary } from '@tanstack/react-router';
import { useState, type ReactNode } from 'react';
import type { SupervisionPolicy } from '#shared/contract/entities/supervision.ts';
import { PermittedButton } from '../../../components/access/permitted-button.tsx';
import { errorLinesOf } from '../../../components/data/error-lines.tsx';
import { ConfirmDelete } from '../../../components/forms/confirm-dialog.tsx';
import { notifySaved } from '../../../components/forms/form-errors.tsx';
import { PageHeader } from '../../../components/page/page-header.tsx';
import { deletePolicy, useDeletePolicy } from '../api/delete-policy.ts';
import { usePolicy } from '../api/get-policy.ts';
import { PolicyApply } from './policy-apply.tsx';
import { PolicyEditor } from './policy-editor.tsx';
import { draftOfPolicy, emptyPolicy } from './policy-model.ts';

/** /dashboard/supervision/policies/create */
export function CreatePolicyScreen({ onSaved }: { onSaved: (policy: SupervisionPolicy) => void }) {
  return (
    <>
      <PageHeader title="Create supervision policy" description="Name the policy, choose what it reads and whose recordings, then test its terms on a sample and preview it on a past period." />
      <PolicyEditor
        initial={emptyPolicy()}
        creating
        onSaved={(policy) => {
          notifySaved(`Policy ${policy.policy_reference} created.`);
          onSaved(policy);
        }}
      />
    </>
  );
}

/** A policy's page while its route's loader fetches it. */
export function PolicyPending() {
  return <Loader aria-label="Loading the policy" />;
}

/** The policy could not be fetched (not found, refused): the API's own message under the page's title. */
export function PolicyError({ reference, error }: { reference: string; error: unknown }) {
  const message = error instanceof Error ? error.message : '';
  return (
    <>
      <PageHeader title={`Policy ${reference}`} />
      <Alert variant="default" title="This policy could not be loaded">
        {message || 'No such policy.'}
      </Alert>
    </>
  );
}

type PolicyDetailProps = {
  reference: string;
  onDeleted: () => void;
  /** What opens the policy's earlier versions (features/history, composed by the route). */
  history?: (policy: SupervisionPolicy) => ReactNode;
};

/**
 * /dashboard/supervision/policies/$policyReference: the policy in the editor, apply to a past period with its progress,
 * and delete. Its route's loader has fetched the policy; a refused fetch shows under the page's title.
 */
export function PolicyDetailScreen(props: PolicyDetailProps) {
  return (
    <CatchBoundary getResetKey={() => props.reference} errorComponent={({ error }) => <PolicyError reference={props.reference} error={error} />}>
      <PolicyDetail {...props} />
    </CatchBoundary>
  );
}

function PolicyDetail({ reference, onDeleted, history }: PolicyDetailProps) {
  const policy = usePolicy(reference);
  const [deleting, setDeleting] = useState(false);
  const remove = useDeletePolicy();
  const stored = policy.data;
  return (
    <>
      <PageHeader
        title={`Policy ${reference}`}
        description={stored.description}
        actions={
          <>
            {history?.(stored)}
            <PermittedButton
              action={deletePolicy.action}
              variant="default"
              onClick={() => {
                remove.reset();
                setDeleting(true);
              }}
            >
              Delete policy
            </PermittedButton>
          </>
        }
      />
      <Stack gap="lg">
        {/* Keyed by the stored version, so a save (which refetches) restarts the editor from what the server kept. */}
        <PolicyEditor
          key={stored.policy_version}
          initial={draftOfPolicy(stored)}
          creating={false}
          stored={stored}
          onSaved={(saved) => notifySaved(`Policy ${saved.policy_reference} saved.`)}
        />
        <PolicyApply policy={stored} />
      </Stack>
      <ConfirmDelete
        linesTitle="The server refused"
        opened={deleting}
        title={`Delete policy ${reference}?`}
        message="The policy raises nothing more. The items it raised, their hits and their history stay, as the record of what was reviewed."
        lines={remove.error ? errorLinesOf(remove.error) : []}
        busy={remove.isPending}
        onCancel={() => setDeleting(false)}
        onConfirm={() =>
          remove.mutate(
            { params: { policy_reference: reference } },
            {
              onSuccess: () => {
                notifySaved(`Policy ${reference} deleted.`);
                onDeleted();
              },
            },
          )
        }
      />
    </>
  );
}
