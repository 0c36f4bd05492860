import { useState } from 'react';
import { ActionIcon, Alert, Button, Group, Menu, Skeleton, Stack, Table, Text, VisuallyHidden } from '@mantine/core';
import type { Website } from '../../api/types.ts';
import { fetchAdminWebsites, type AdminCommand } from '../../api/admin.ts';
import { useWebsitesStore } from '../../stores/websites-store.ts';
import { Icon } from '../../components/icon.tsx';
import { ToneBadge } from '../../components/tone-badge.tsx';
import { useAdminList } from './use-admin-list.ts';
import { useAdminCommand } from './use-admin-command.ts';
import { WebsiteDialog } from './website-dialog.tsx';
import { SegmentsDialog } from './segments-dialog.tsx';
import { DeleteWebsiteDialog } from './delete-website-dialog.tsx';
import { GOAL_LABELS, defaultSegmentOf } from './website-settings.ts';

type Dialog = { kind: 'add' } | { kind: 'edit' | 'segments' | 'delete'; website: Website } | null;

const onOff = (isOn: boolean | undefined) => (
  <ToneBadge tone={isOn ? 'green' : 'gray'} size="sm">
    {isOn ? 'On' : 'Off'}
  </ToneBadge>
);

/** The websites the user manages: settings, segments, archive and (ADMIN) add and delete. */
export function WebsitesPanel({ isAdmin }: { isAdmin: boolean }) {
  const { state, data: websites, reload } = useAdminList(fetchAdminWebsites);
  const [dialog, setDialog] = useState<Dialog>(null);
  const changed = () => {
    reload();
    void useWebsitesStore.getState().refresh();
  };
  const archive = useAdminCommand(changed);

  if (state.status === 'error')
    return (
      <Alert color="red" title="The websites could not be loaded">
        {state.error}
      </Alert>
    );
  if (!websites) return <Skeleton h={160} radius="md" aria-label="Loading the websites" />;

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
      <Table.ScrollContainer minWidth={860}>
        <Table verticalSpacing="sm" highlightOnHover fz="sm">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Website</Table.Th>
              <Table.Th>Domain</Table.Th>
              <Table.Th>Goal</Table.Th>
              <Table.Th>Hreflang</Table.Th>
              <Table.Th>AI suggestions</Table.Th>
              <Table.Th>Segments</Table.Th>
              <Table.Th>Status</Table.Th>
              <Table.Th w={48}>
                <VisuallyHidden>Actions</VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {websites.map((website) => {
              const segment = defaultSegmentOf(website);
              return (
                <Table.Tr key={website.id} data-testid={`admin-website-${website.id}`}>
                  <Table.Td>
                    <Text size="sm" fw={600}>
                      {website.name}
                    </Text>
                    <Text size="xs" c="dimmed">
                      {website.id}
                    </Text>
                  </Table.Td>
                  <Table.Td>{website.domain}</Table.Td>
                  <Table.Td>{segment?.goalType ? GOAL_LABELS[segment.goalType] : 'None'}</Table.Td>
                  <Table.Td>{onOff(segment?.isHreflang)}</Table.Td>
                  <Table.Td>{onOff(segment?.isAi)}</Table.Td>
                  <Table.Td>{website.segments.length}</Table.Td>
                  <Table.Td>
                    <ToneBadge tone={website.isArchived ? 'orange' : 'green'} size="sm">
                      {website.isArchived ? 'Archived' : 'Active'}
                    </ToneBadge>
                  </Table.Td>
                  <Table.Td>
                    <WebsiteActions
                      website={website}
                      isAdmin={isAdmin}
                      onRun={(command) => void archive.run(command)}
                      onOpen={(kind) => setDialog({ kind, website })}
                    />
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
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
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <ActionIcon variant="subtle" color="gray" aria-label={`Actions for ${website.name}`}>
          <Icon name="chevron-down" size={16} />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
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
      </Menu.Dropdown>
    </Menu>
  );
}
