import { useState } from 'react';
import { Alert, Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import type { Website } from '../../api/types.ts';
import { useAdminCommand } from './use-admin-command.ts';

/** Deleting a website is for good (crawls, settings, bindings): its id must be typed to confirm. */
export function DeleteWebsiteDialog({
  website,
  onClose,
  onDone,
}: {
  website: Website | undefined;
  onClose: () => void;
  onDone: () => void;
}) {
  const [typed, setTyped] = useState('');
  const command = useAdminCommand(onDone);
  const close = () => {
    setTyped('');
    command.setError(null);
    onClose();
  };
  return (
    <Modal
      opened={website !== undefined}
      onClose={close}
      title={website ? `Delete ${website.name}?` : ''}
      centered
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      {website ? (
        <form
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            void command.run({ command: 'website delete', id: website.id, confirm: typed }).then((ok) => {
              if (ok) close();
            });
          }}
        >
          <Stack gap="md">
            <Text size="sm">
              Its crawls, settings, segments and client bindings are deleted for good. To keep the crawls and only hide
              the website from its clients, archive it instead.
            </Text>
            <TextInput
              label={`Type ${website.id} to confirm`}
              value={typed}
              onChange={(e) => setTyped(e.currentTarget.value)}
              error={command.fieldError('confirm')}
              autoComplete="off"
              data-autofocus
            />
            {command.formError ? <Alert color="red">{command.formError}</Alert> : null}
            <Group justify="flex-end" gap="sm">
              <Button variant="default" onClick={close}>
                Cancel
              </Button>
              <Button type="submit" color="red.8" loading={command.isRunning} disabled={typed !== website.id}>
                Delete website
              </Button>
            </Group>
          </Stack>
        </form>
      ) : null}
    </Modal>
  );
}
