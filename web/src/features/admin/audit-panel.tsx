import { Stack, Text } from '@mantine/core';
import { fetchAuditLog } from '../../api/admin.ts';
import { formatRunTime } from '../crawls/crawl-run-format.ts';
import { useAdminList } from './use-admin-list.ts';
import { AdminListFallback, AdminTable, CellTitle } from './admin-table.tsx';

/** ADMIN only: the latest administration changes, newest first: when, who, what, and the command's answer. */
export function AuditPanel() {
  const { state, data: entries } = useAdminList(fetchAuditLog);
  if (!entries) return <AdminListFallback state={state} what="audit log" />;
  return (
    <Stack gap="sm" data-testid="admin-audit">
      <Text size="sm" c="dimmed">
        Changes made here and with the admin CLI (shown as “cli”), the latest 500.
      </Text>
      <AdminTable
        rows={entries}
        columns={[
          { header: 'When', cell: (e) => formatRunTime(e.at), width: 150, wrap: 'nowrap' },
          { header: 'Who', cell: (e) => e.actor, isFolded: true },
          {
            header: 'What',
            cell: (e) => <CellTitle title={e.action} detail={e.target} />,
            wrap: 'nowrap',
          },
          { header: 'Detail', cell: (e) => e.detail, wrap: 'anywhere' },
        ]}
        rowKey={(e) => e.id}
        empty="No changes yet."
        minWidth={820}
        tableProps={{ striped: true }}
      />
    </Stack>
  );
}
