// Columns of the audit trail: the field table's shown fields, sortable ones sorting on header click.
import { AUDIT_FIELDS } from '@app/domain/audit';
import type { FieldDef } from '@app/domain/fields';
import { Code, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import type { AuditEventPublic } from '../../client/types.gen';
import { formatDateTime } from '../../lib/format';
import { ariaSort, type SortState } from '../../lib/sort';
import type { DataColumn } from '../common/DataTable';
import { OrNA } from '../common/EmptyValue';
import { SortableHeader } from '../common/SortableHeader';

function cell(e: AuditEventPublic, f: FieldDef): ReactNode {
  switch (f.name) {
    case 'created_at':
      return formatDateTime(e.created_at);
    case 'action':
      return (
        <Text size="sm" ff="monospace">
          {e.action}
        </Text>
      );
    case 'actor_email':
      // No actor: nobody was signed in (a failed login).
      return (
        e.actor_email ?? (
          <Text size="sm" c="dimmed">
            anonymous
          </Text>
        )
      );
    case 'details':
      return Object.keys(e.details).length ? (
        <Code block style={{ whiteSpace: 'pre-wrap', maxWidth: 360 }}>
          {JSON.stringify(e.details)}
        </Code>
      ) : null;
    default:
      return <OrNA value={e[f.name as keyof AuditEventPublic] as string | number | null} />;
  }
}

export function auditColumns(sort: SortState, onSort: (column: string) => void): DataColumn<AuditEventPublic>[] {
  return AUDIT_FIELDS.filter((f) => f.column).map((f) => ({
    key: f.name,
    header: f.sortable ? <SortableHeader label={f.label} column={f.name} sort={sort} onSort={onSort} /> : f.label,
    sort: f.sortable ? ariaSort(sort, f.name) : undefined,
    render: (e) => cell(e, f),
  }));
}
