import { useState } from 'react';
import { Alert, Button, Group, Menu, Stack, Text } from '@mantine/core';
import type { Website } from '../../api/types.ts';
import { fetchAdminWebsites, type AdminCommand } from '../../api/admin.ts';
import { useWebsitesStore } from '../../stores/websites-store.ts';
import { Icon } from '../../components/icon.tsx';
import { ToneBadge } from '../../components/tone-badge.tsx';
import { useAdminList } from './use-admin-list.ts';
import { AdminListFallback, AdminTable, CellTitle, RowActionsMenu } from './admin-table.tsx';
import { useAdminCommand } from './use-admin-command.ts';
import { WebsiteDialog } from './website-dialog.tsx';
import { SegmentsDialog } from './segments-dialog.tsx';
import { DeleteWebsiteDialog } from './delete-website-dialog.tsx';
import { GOAL_LABELS, defaultSegmentOf } from './website-settings.ts';
import type { WebsiteSegment } from '../../api/types.ts';

type Dialog = { kind: 'add' } | { kind: 'edit' | 'segments' | 'delete'; website: Website } | null;

const onOff = (isOn: boolean | undefined) => (
  <ToneBadge tone={isOn ? 'green' : 'gray'} size="sm">
    {isOn ? 'On' : 'Off'}
  </ToneBadge>
);

const goalOf = (goal: WebsiteSegment['goalType'] | undefined) => (goal ? GOAL_LABELS[goal] : 'None');

/** The websites the user manages: settings, segments, archive and (ADMIN) add and delete. */
export function WebsitesPanel({ isAdmin }: { isAdmin: boolean }) {
  const { state, data: websites, reload } = useAdminList(fetchAdminWebsites);
  const [dialog, setDialog] = useState<Dialog>(null);
  const changed = () => {
    reload();
    void useWebsitesStore.getState().refresh();
  };
  const archive = useAdminCommand(changed);

  if (!websites) return <AdminListFallback state={state} what="websites" />;

  const current = dialog && dialog.kind !== 'add' ? websites.find((w) => w.id === dialog.website.id) : undefined;
  return (
    <Stack gap="sm" data-testid="admin-websites">
      <Group justify="space-between" wrap="wrap" gap="sm">
        <Text size="sm" c="dimmed">
          Hreflang, AI suggestions and the goal are those of the website&apos;s default segment (all pages).
        </Text>
        {isAdmin ? (
          <Button size="sm" leftSection={<Icon name="plus" size={16} />} onClick={() => setDialog({ kind: 'add' })}>
            Add website
          </Button>
        ) : null}
      </Group>
      {archive.error ? (
        <Alert color="red" withCloseButton onClose={() => archive.setError(null)}>
          {archive.error.message}
        </Alert>
      ) : null}
      <AdminTable
        rows={websites}
        columns={[
          {
            header: 'Website',
            cell: (website) => <CellTitle title={website.name} detail={website.id} />,
          },
          { header: 'Domain', cell: (website) => website.domain, wrap: 'nowrap' },
          { header: 'Goal', cell: (website) => goalOf(defaultSegmentOf(website)?.goalType), isFolded: true },
          { header: 'Hreflang', cell: (website) => onOff(defaultSegmentOf(website)?.isHreflang), isFolded: true },
          { header: 'AI suggestions', cell: (website) => onOff(defaultSegmentOf(website)?.isAi), isFolded: true },
          { header: 'Segments', cell: (website) => website.segments.length, isFolded: true },
          {
            header: 'Status',
            cell: (website) => (
              <ToneBadge tone={website.isArchived ? 'orange' : 'green'} size="sm">
                {website.isArchived ? 'Archived' : 'Active'}
              </ToneBadge>
            ),
          },
        ]}
        rowKey={(website) => website.id}
        rowTestId={(website) => `admin-website-${website.id}`}
        actions={(website) => (
          <WebsiteActions
            website={website}
            isAdmin={isAdmin}
            onRun={(command) => void archive.run(command)}
            onOpen={(kind) => setDialog({ kind, website })}
          />
        )}
        minWidth={860}
        tableProps={{ highlightOnHover: true }}
      />
      <WebsiteDialog
        opened={dialog?.kind === 'add' || dialog?.kind === 'edit'}
        website={dialog?.kind === 'edit' ? current : undefined}
        onClose={() => setDialog(null)}
        onDone={changed}
      />
      <SegmentsDialog
        website={dialog?.kind === 'segments' ? current : undefined}
        onClose={() => setDialog(null)}
        onDone={changed}
      />
      <DeleteWebsiteDialog
        website={dialog?.kind === 'delete' ? current : undefined}
        onClose={() => setDialog(null)}
        onDone={changed}
      />
    </Stack>
  );
}

function WebsiteActions({
  website,
  isAdmin,
  onRun,
  onOpen,
}: {
  website: Website;
  isAdmin: boolean;
  onRun: (command: AdminCommand) => void;
  onOpen: (dialog: 'edit' | 'segments' | 'delete') => void;
}) {
  return (
    <RowActionsMenu subject={website.name}>
      <Menu.Item onClick={() => onOpen('edit')}>Edit settings</Menu.Item>
      <Menu.Item onClick={() => onOpen('segments')}>Segments</Menu.Item>
      {isAdmin ? (
        <>
          <Menu.Item
            onClick={() =>
              onRun({
                command: website.isArchived ? 'website restore' : 'website archive',
                id: website.id,
              })
            }
          >
            {website.isArchived ? 'Restore' : 'Archive'}
          </Menu.Item>
          <Menu.Divider />
          <Menu.Item color="red" onClick={() => onOpen('delete')}>
            Delete…
          </Menu.Item>
        </>
      ) : null}
    </RowActionsMenu>
  );
}
