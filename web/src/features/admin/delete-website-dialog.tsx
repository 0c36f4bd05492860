import { useState } from 'react';
import { Text, TextInput } from '@mantine/core';
import type { Website } from '../../api/types.ts';
import { useAdminCommand } from './use-admin-command.ts';
import { type AdminDialogProps, AdminModal, CommandForm } from './command-form.tsx';

/** Deleting a website is for good (crawls, settings, bindings): its id must be typed to confirm. */
export function DeleteWebsiteDialog({ website, onClose, onDone }: { website: Website | undefined } & AdminDialogProps) {
  const [typed, setTyped] = useState('');
  const command = useAdminCommand(onDone);
  const close = () => {
    setTyped('');
    command.setError(null);
    onClose();
  };
  return (
    <AdminModal opened={website !== undefined} onClose={close} title={website ? `Delete ${website.name}?` : ''}>
      {website ? (
        <CommandForm
          onSubmit={() =>
            void command.run({ command: 'website delete', id: website.id, confirm: typed }).then((ok) => {
              if (ok) close();
            })
          }
          onCancel={close}
          command={command}
          submitLabel="Delete website"
          submitColor="red.8"
          isSubmitDisabled={typed !== website.id}
          gap="md"
        >
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
        </CommandForm>
      ) : null}
    </AdminModal>
  );
}
