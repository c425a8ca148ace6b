import { Anchor } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { PAYLOAD_TYPES } from '#shared/constants/payloads.ts';
import type { Role } from '#shared/contract/entities/roles.ts';
import { CursorTable, pagingOf, type Column } from '../../components/data/cursor-table.tsx';
import { PermittedButton } from '../../components/access/permitted-button.tsx';
import { PageHeader } from '../../components/page/page-header.tsx';
import { formatDateTime, formatNumber } from '../../lib/format.ts';
import { useRoles } from './api/list-roles.ts';
import { putRole } from './api/put-role.ts';
import { emptyText, ReferenceFilter, referenceQuery } from './reference-filter.tsx';
import { PAYLOAD_TYPE_LABELS } from '../../lib/labels.ts';
import type { ReferenceSearchProps } from './reference-search.ts';

const columns: readonly Column<Role>[] = [
  {
    header: 'Role',
    value: (row) => row.role_reference,
    render: (row) => (
      <Anchor style={{ whiteSpace: 'nowrap' }} renderRoot={(props) => <Link {...props} to="/dashboard/access/roles/$roleReference" params={{ roleReference: row.role_reference }} />}>
        {row.role_reference}
      </Anchor>
    ),
  },
  { header: 'Description', value: (row) => row.description ?? '' },
  { header: 'Permissions', value: (row) => row.permissions.length, render: (row) => formatNumber(row.permissions.length) },
  {
    header: 'Payload types',
    value: (row) => row.payload_types.join(', '),
    render: (row) => (row.payload_types.length === PAYLOAD_TYPES.length ? 'All' : row.payload_types.map((type) => PAYLOAD_TYPE_LABELS[type]).join(', ') || 'None'),
  },
  { header: 'CIDR ranges', value: (row) => row.cidr_ranges.join(', ') },
  { header: 'Alertable', value: (row) => (row.is_alertable ? 'Yes' : 'No') },
  { header: 'Kind', value: (row) => (row.is_system ? 'System' : 'Custom') },
  { header: 'Last changed', value: (row) => row.updated_at ?? '', render: (row) => formatDateTime(row.updated_at) },
];

/** The tenant's roles, each linking to its permission editor. */
export function RolesScreen({ search, onSearch }: ReferenceSearchProps) {
  const list = useRoles(referenceQuery(search));
  return (
    <>
      <PageHeader
        title="Roles"
        description="What portal users may do, and on which groups. System roles cannot be changed."
        actions={
          <PermittedButton action={putRole.action} renderRoot={(props) => <Link {...props} to="/dashboard/access/roles/create" />}>
            Create role
          </PermittedButton>
        }
      />
      <ReferenceFilter label="Role" search={search} onSearch={onSearch} />
      <CursorTable
        label="Roles"
        columns={columns}
        rows={list.items}
        rowKey={(row) => row.role_reference}
        {...pagingOf(list)}
        empty={emptyText(search, 'roles', 'No roles yet.')}
      />
    </>
  );
}
