import { Alert, Group, Loader } from '@mantine/core';
import { CatchBoundary } from '@tanstack/react-router';
import { useState, type ReactNode } from 'react';
import type { Role } from '#shared/contract/entities/roles.ts';
import { PermittedButton } from '../../components/access/permitted-button.tsx';
import { notifySaved } from '../../components/forms/form-errors.tsx';
import { PageHeader } from '../../components/page/page-header.tsx';
import { deleteRole, useDeleteRole } from './api/delete-role.ts';
import { useRole } from './api/get-role.ts';
import { RoleError } from './role-error.tsx';
import { ConfirmDelete } from '../../components/forms/confirm-dialog.tsx';
import { errorLinesOf } from '../../components/data/error-lines.tsx';
import { RoleEditor } from './role-editor.tsx';
import { draftOfRole, EMPTY_ROLE, type CatalogueEntry } from './role-model.ts';
import { roleReach, useHeldRoles } from './role-reach.ts';

/** The catalogue is loaded by the route (lazily); until then the editor waits. */
export interface CatalogueState {
  catalogue: readonly CatalogueEntry[] | undefined;
  error: Error | null;
}

function CatalogueGate({ state, children }: { state: CatalogueState; children: (catalogue: readonly CatalogueEntry[]) => React.ReactNode }) {
  if (state.error !== null) {
    return (
      <Alert variant="default" title="The action catalogue could not be loaded">
        {state.error.message}
      </Alert>
    );
  }
  if (state.catalogue === undefined) {
    return (
      <Group justify="center" py="xl">
        <Loader aria-label="Loading the action catalogue" />
      </Group>
    );
  }
  return <>{children(state.catalogue)}</>;
}

/** /dashboard/access/roles/create */
export function CreateRoleScreen({ catalogue, onSaved }: { catalogue: CatalogueState; onSaved: (role: Role) => void }) {
  return (
    <>
      <PageHeader title="Create role" description="Give the role a name, then add rules: which actions it allows or denies, and on which groups." />
      <CatalogueGate state={catalogue}>
        {(entries) => (
          <RoleEditor
            initial={EMPTY_ROLE}
            creating
            readOnly={false}
            catalogue={entries}
            onSaved={(role) => {
              notifySaved(`Role ${role.role_reference} created.`);
              onSaved(role);
            }}
          />
        )}
      </CatalogueGate>
    </>
  );
}

type RoleDetailProps = {
  reference: string;
  catalogue: CatalogueState;
  onDeleted: () => void;
  /** What opens the role's earlier versions (features/history, composed by the route). */
  history?: (role: Role) => ReactNode;
};

/**
 * /dashboard/access/roles/$roleReference: the role in the editor (read-only for system roles), and delete.
 *
 * Its route's loader has fetched the role (ensureQueryData with the same options) and shows RolePending meanwhile. A
 * refused fetch (404, 403) shows here, under the page's title, from the page's own boundary (as a recording's page
 * does: a route's errorComponent would be a chunk of its own).
 */
export function RoleDetailScreen(props: RoleDetailProps) {
  return (
    <CatchBoundary getResetKey={() => props.reference} errorComponent={({ error }) => <RoleError reference={props.reference} error={error} />}>
      <RoleDetail {...props} />
    </CatchBoundary>
  );
}

function RoleDetail({ reference, catalogue, onDeleted, history }: RoleDetailProps) {
  const role = useRole(reference);
  const [deleting, setDeleting] = useState(false);
  const remove = useDeleteRole();
  const held = useHeldRoles();
  const title = `Role ${reference}`;
  const system = role.data.is_system;
  // The server refuses deleting a role the user holds or one granting more than theirs: no button is offered then.
  const locked = roleReach(held, { reference, creating: false, stored: role.data }).lockedReason !== undefined;
  return (
    <>
      <PageHeader
        title={title}
        description={role.data.description}
        actions={
          <>
            {history?.(role.data)}
            {system || locked ? null : (
              <PermittedButton
                action={deleteRole.action}
                variant="default"
                onClick={() => {
                  remove.reset();
                  setDeleting(true);
                }}
              >
                Delete role
              </PermittedButton>
            )}
          </>
        }
      />
      {system && (
        <Alert variant="default" title="System role" mb="md">
          System roles are provided with the platform and cannot be changed or deleted.
        </Alert>
      )}
      <CatalogueGate state={catalogue}>
        {(entries) => (
          // Keyed by the stored version, so a save (which refetches) restarts the editor from what the server kept.
          <RoleEditor
            key={role.data.updated_at ?? ''}
            initial={draftOfRole(role.data)}
            creating={false}
            readOnly={system}
            catalogue={entries}
            stored={role.data}
            held={held}
            onSaved={(saved) => notifySaved(`Role ${saved.role_reference} saved.`)}
          />
        )}
      </CatalogueGate>
      <ConfirmDelete
        linesTitle="The server refused"
        opened={deleting}
        title={`Delete role ${reference}?`}
        message="Portal users holding only this role lose their access. The account's default role cannot be deleted."
        lines={remove.error ? errorLinesOf(remove.error) : []}
        busy={remove.isPending}
        onCancel={() => setDeleting(false)}
        onConfirm={() =>
          remove.mutate({ params: { role_reference: reference } }, {
            onSuccess: () => {
              notifySaved(`Role ${reference} deleted.`);
              onDeleted();
            },
          })
        }
      />
    </>
  );
}
