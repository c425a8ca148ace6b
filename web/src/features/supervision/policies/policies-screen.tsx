import { Anchor, Badge, Group } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import type { SupervisionPolicy } from '#shared/contract/entities/supervision.ts';
import { PermittedButton } from '../../../components/access/permitted-button.tsx';
import { errorLinesOf } from '../../../components/data/error-lines.tsx';
import { CursorTable, pagingOf, type Column } from '../../../components/data/cursor-table.tsx';
import { ConfirmDelete } from '../../../components/forms/confirm-dialog.tsx';
import { notifySaved } from '../../../components/forms/form-errors.tsx';
import { PageHeader } from '../../../components/page/page-header.tsx';
import { formatDateTime } from '../../../lib/format.ts';
import { PAYLOAD_TYPE_LABELS } from '../../../lib/labels.ts';
import { createPolicy } from '../api/create-policy.ts';
import { deletePolicy, useDeletePolicy } from '../api/delete-policy.ts';
import { usePolicies } from '../api/list-policies.ts';
import { ApplyProgress, applyCounts } from './apply-progress.tsx';
import { ruleWords, scopeWords } from './policy-model.ts';

function columns(onDelete: (reference: string) => void): Column<SupervisionPolicy>[] {
  return [
    {
      header: 'Policy',
      value: (row) => row.policy_reference,
      render: (row) => (
        <Anchor
          style={{ whiteSpace: 'nowrap' }}
          renderRoot={(props) => <Link {...props} to="/dashboard/supervision/policies/$policyReference" params={{ policyReference: row.policy_reference }} />}
        >
          {row.policy_reference}
        </Anchor>
      ),
    },
    { header: 'Kind', value: (row) => row.kind },
    {
      header: 'Enabled',
      value: (row) => (row.is_enabled ? 'Yes' : 'No'),
      render: (row) => (
        <Badge variant="light" color={row.is_enabled ? 'green' : 'gray'} tt="none">
          {row.is_enabled ? 'Enabled' : 'Disabled'}
        </Badge>
      ),
    },
    { header: 'Scope', value: (row) => scopeWords(row.scope, PAYLOAD_TYPE_LABELS) },
    { header: 'Terms or sample', value: (row) => ruleWords(row) },
    { header: 'Days to review', value: (row) => (row.kind === 'Ignore' ? '' : row.review_days), render: (row) => (row.kind === 'Ignore' ? '—' : String(row.review_days)) },
    {
      header: 'Latest apply',
      value: (row) => (row.last_apply === undefined ? '' : `${row.last_apply.state}: ${applyCounts(row.last_apply)}`),
      render: (row) => (row.last_apply === undefined ? '—' : <ApplyProgress run={row.last_apply} compact />),
    },
    { header: 'Last changed', value: (row) => row.updated_at ?? '', render: (row) => formatDateTime(row.updated_at) },
    {
      header: 'Actions',
      exportable: false,
      value: () => '',
      render: (row) => (
        <Group gap="xs" wrap="nowrap">
          <PermittedButton action={deletePolicy.action} size="xs" variant="default" onClick={() => onDelete(row.policy_reference)} aria-label={`Delete policy ${row.policy_reference}`}>
            Delete
          </PermittedButton>
        </Group>
      ),
    },
  ];
}

/** /dashboard/supervision/policies: the tenant's supervision policies, each linking to its editor; delete with a confirmation. */
export function PoliciesScreen() {
  const list = usePolicies({});
  const remove = useDeletePolicy();
  const [deleting, setDeleting] = useState<string | undefined>();
  return (
    <>
      <PageHeader
        title="Supervision policies"
        description="Lexicon policies raise review items on terms in messages' text and in notes; ignore policies silence known noise such as disclaimers; sampling policies pick a share of each person's recordings a day."
        actions={
          <PermittedButton action={createPolicy.action} renderRoot={(props) => <Link {...props} to="/dashboard/supervision/policies/create" />}>
            Create policy
          </PermittedButton>
        }
      />
      <CursorTable
        label="Supervision policies"
        columns={columns((reference) => {
          remove.reset();
          setDeleting(reference);
        })}
        rows={list.items}
        rowKey={(row) => row.policy_reference}
        {...pagingOf(list)}
        empty="No supervision policies yet."
      />
      <ConfirmDelete
        linesTitle="The server refused"
        opened={deleting !== undefined}
        title={`Delete policy ${deleting ?? ''}?`}
        message="The policy raises nothing more. The items it raised, their hits and their history stay, as the record of what was reviewed."
        lines={remove.error ? errorLinesOf(remove.error) : []}
        busy={remove.isPending}
        onCancel={() => setDeleting(undefined)}
        onConfirm={() => {
          if (deleting === undefined) return;
          remove.mutate(
            { params: { policy_reference: deleting } },
            {
              onSuccess: () => {
                notifySaved(`Policy ${deleting} deleted.`);
                setDeleting(undefined);
              },
            },
          );
        }}
      />
    </>
  );
}
