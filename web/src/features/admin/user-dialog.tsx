import { useState } from 'react';
import {
  Alert,
  Button,
  Group,
  Modal,
  MultiSelect,
  PasswordInput,
  SegmentedControl,
  Select,
  Stack,
  TextInput,
} from '@mantine/core';
import type { AdminUser } from '../../api/admin.ts';
import type { Role, Website } from '../../api/types.ts';
import { ROLE_OPTIONS } from '../../lib/roles.ts';
import { useAdminCommand } from './use-admin-command.ts';
import { websiteLabels } from './website-settings.ts';

type How = 'invite' | 'password';

interface DialogProps {
  user: AdminUser | undefined;
  websites: readonly Website[];
  isAdmin: boolean;
  onClose: () => void;
  onDone: () => void;
}

/**
 * Adds a user (an emailed invitation link, or a password set now) or changes one's role and websites. STAFF add and
 * change CLIENT users of their own websites only, so the role is fixed for them.
 */
export function UserDialog({ opened, ...props }: DialogProps & { opened: boolean }) {
  return (
    <Modal
      opened={opened}
      onClose={props.onClose}
      title={props.user ? `Change ${props.user.email}` : 'Add a user'}
      centered
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      {opened ? <UserForm {...props} /> : null}
    </Modal>
  );
}

function UserForm({ user, websites, isAdmin, onClose, onDone }: DialogProps) {
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>(user?.role ?? 'CLIENT');
  const [bound, setBound] = useState<string[]>(user?.websites ?? []);
  const [how, setHow] = useState<How>('invite');
  const [password, setPassword] = useState('');
  const command = useAdminCommand(onDone);
  const isNew = !user;
  const isAdminRole = role === 'ADMIN';

  const save = async () => {
    const websitesOf = isAdminRole ? [] : bound;
    const ok = isNew
      ? await command.run(
          how === 'invite'
            ? { command: 'user invite', email, role, websites: websitesOf }
            : { command: 'user add', email, password, role, websites: websitesOf },
        )
      : await command.run({
          command: 'user set',
          email: user.email,
          ...(role !== user.role && { role }),
          ...(!isAdminRole && { websites: bound }),
        });
    if (ok) onClose();
  };

  return (
    <form
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      <Stack gap="sm">
        {isNew ? (
          <TextInput
            label="Email address"
            type="email"
            value={email}
            onChange={(e) => setEmail(e.currentTarget.value)}
            error={command.fieldError('email')}
            data-autofocus
            required
          />
        ) : null}
        <Select
          label="Role"
          data={ROLE_OPTIONS}
          value={role}
          onChange={(value) => setRole(ROLE_OPTIONS.find((o) => o.value === value)?.value ?? 'CLIENT')}
          error={command.fieldError('role')}
          disabled={!isAdmin}
          description={isAdmin ? undefined : 'Staff add and change client users; ask an admin for other roles'}
          allowDeselect={false}
        />
        {isAdminRole ? null : (
          <MultiSelect
            label="Websites"
            data={[...websiteLabels(websites)].map(([value, label]) => ({ value, label }))}
            value={bound}
            onChange={setBound}
            error={command.fieldError('websites')}
            placeholder={bound.length ? undefined : 'Pick the websites'}
            searchable
          />
        )}
        {isNew ? (
          <>
            <SegmentedControl
              value={how}
              onChange={(value) => setHow(value === 'password' ? 'password' : 'invite')}
              data={[
                { value: 'invite', label: 'Email an invitation link' },
                { value: 'password', label: 'Set a password now' },
              ]}
              fullWidth
            />
            {how === 'password' ? (
              <PasswordInput
                label="Password"
                description="At least 8 characters"
                value={password}
                onChange={(e) => setPassword(e.currentTarget.value)}
                error={command.fieldError('password')}
                autoComplete="new-password"
                required
              />
            ) : null}
          </>
        ) : null}
        {command.formError ? (
          <Alert color="red" role="alert">
            {command.formError}
          </Alert>
        ) : null}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" loading={command.isRunning}>
            {isNew ? (how === 'invite' ? 'Send invitation' : 'Add user') : 'Save'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
