import { MultiSelect, PasswordInput, SegmentedControl, Select, TextInput } from '@mantine/core';
import type { AdminUser } from '../../api/admin.ts';
import type { Role, Website } from '../../api/types.ts';
import { ROLE_OPTIONS } from '../../lib/roles.ts';
import { useCommandDraft } from './use-command-draft.ts';
import { type AdminDialogProps, AdminModal, CommandForm } from './command-form.tsx';
import { websiteLabels } from './website-settings.ts';

type How = 'invite' | 'password';

interface Draft {
  email: string;
  password: string;
  role: Role;
  /** The websites the user is bound to. */
  bound: string[];
  how: How;
}

interface DialogProps extends AdminDialogProps {
  user: AdminUser | undefined;
  websites: readonly Website[];
  isAdmin: boolean;
}

/**
 * Adds a user (an emailed invitation link, or a password set now) or changes one's role and websites. STAFF add and
 * change CLIENT users of their own websites only, so the role is fixed for them.
 */
export function UserDialog({ opened, ...props }: DialogProps & { opened: boolean }) {
  return (
    <AdminModal
      opened={opened}
      onClose={props.onClose}
      title={props.user ? `Change ${props.user.email}` : 'Add a user'}
    >
      {opened ? <UserForm {...props} /> : null}
    </AdminModal>
  );
}

function UserForm({ user, websites, isAdmin, onClose, onDone }: DialogProps) {
  const { draft, set, command, text } = useCommandDraft<Draft>(
    () => ({ email: '', password: '', role: user?.role ?? 'CLIENT', bound: user?.websites ?? [], how: 'invite' }),
    onDone,
  );
  const { email, password, role, bound, how } = draft;
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
    <CommandForm
      onSubmit={() => void save()}
      onCancel={onClose}
      command={command}
      submitLabel={isNew ? (how === 'invite' ? 'Send invitation' : 'Add user') : 'Save'}
    >
      {isNew ? <TextInput label="Email address" type="email" {...text('email')} data-autofocus required /> : null}
      <Select
        label="Role"
        data={ROLE_OPTIONS}
        value={role}
        onChange={(value) => set('role', ROLE_OPTIONS.find((o) => o.value === value)?.value ?? 'CLIENT')}
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
          onChange={(value) => set('bound', value)}
          error={command.fieldError('websites')}
          placeholder={bound.length ? undefined : 'Pick the websites'}
          searchable
        />
      )}
      {isNew ? (
        <>
          <SegmentedControl
            value={how}
            onChange={(value) => set('how', value === 'password' ? 'password' : 'invite')}
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
              {...text('password')}
              autoComplete="new-password"
              required
            />
          ) : null}
        </>
      ) : null}
    </CommandForm>
  );
}
