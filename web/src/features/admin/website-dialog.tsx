import { useState } from 'react';
import { Alert, Button, Group, Modal, Select, Stack, Switch, TextInput } from '@mantine/core';
import type { Website } from '../../api/types.ts';
import { useAdminCommand } from './use-admin-command.ts';
import { GOAL_OPTIONS, NO_GOAL, defaultSegmentOf } from './website-settings.ts';

interface Draft {
  id: string;
  name: string;
  domain: string;
  goal: string;
  isHreflang: boolean;
  isAi: boolean;
}

const EMPTY: Draft = { id: '', name: '', domain: '', goal: NO_GOAL, isHreflang: false, isAi: false };

function draftOf(website: Website | undefined): Draft {
  if (!website) return EMPTY;
  const segment = defaultSegmentOf(website);
  return {
    id: website.id,
    name: website.name,
    domain: website.domain,
    goal: segment?.goalType ?? NO_GOAL,
    isHreflang: segment?.isHreflang ?? false,
    isAi: segment?.isAi ?? false,
  };
}

interface DialogProps {
  website: Website | undefined;
  onClose: () => void;
  onDone: () => void;
}

/** Adds a website (id, name, domain, goal), or edits one: name, domain, goal, hreflang and AI suggestions. */
export function WebsiteDialog({ opened, website, onClose, onDone }: DialogProps & { opened: boolean }) {
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={website ? `Edit ${website.name}` : 'Add a website'}
      centered
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      {/* Mounted afresh at each opening, so the form starts from the website as it is then. */}
      {opened ? <WebsiteForm website={website} onClose={onClose} onDone={onDone} /> : null}
    </Modal>
  );
}

function WebsiteForm({ website, onClose, onDone }: DialogProps) {
  const [draft, setDraft] = useState<Draft>(() => draftOf(website));
  const command = useAdminCommand(onDone);
  const isNew = !website;
  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => setDraft((d) => ({ ...d, [key]: value }));

  const save = async () => {
    const before = draftOf(website);
    const changes = Object.fromEntries(
      (['name', 'domain', 'goal', 'isHreflang', 'isAi'] as const)
        .filter((key) => draft[key] !== before[key])
        .map((key) => [key, draft[key]]),
    );
    if (!isNew && Object.keys(changes).length === 0) return onClose();
    const ok = isNew
      ? await command.run({
          command: 'website add',
          id: draft.id,
          name: draft.name,
          domain: draft.domain,
          goal: draft.goal === NO_GOAL ? null : draft.goal,
        })
      : await command.run({ command: 'website set', id: draft.id, ...changes });
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
            label="Website id"
            description="Lowercase letters, digits and dashes; it never changes"
            value={draft.id}
            onChange={(e) => set('id', e.currentTarget.value)}
            error={command.fieldError('id')}
            data-autofocus
            required
          />
        ) : null}
        <TextInput
          label="Name"
          value={draft.name}
          onChange={(e) => set('name', e.currentTarget.value)}
          error={command.fieldError('name')}
          required
        />
        <TextInput
          label="Domain"
          placeholder="www.example.com"
          value={draft.domain}
          onChange={(e) => set('domain', e.currentTarget.value)}
          error={command.fieldError('domain')}
          required
        />
        <Select
          label="Goal"
          data={GOAL_OPTIONS}
          value={draft.goal}
          onChange={(value) => set('goal', value ?? NO_GOAL)}
          error={command.fieldError('goal')}
          allowDeselect={false}
        />
        {isNew ? null : (
          <>
            <Switch
              label="Hreflang reports"
              checked={draft.isHreflang}
              onChange={(e) => set('isHreflang', e.currentTarget.checked)}
            />
            <Switch
              label="AI suggestions"
              checked={draft.isAi}
              onChange={(e) => set('isAi', e.currentTarget.checked)}
            />
          </>
        )}
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
            {isNew ? 'Add website' : 'Save'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
