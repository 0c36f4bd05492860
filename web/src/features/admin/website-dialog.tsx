import { Select, Switch, TextInput } from '@mantine/core';
import type { Website } from '../../api/types.ts';
import { useCommandDraft } from './use-command-draft.ts';
import { type AdminDialogProps, AdminModal, CommandForm } from './command-form.tsx';
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

interface DialogProps extends AdminDialogProps {
  website: Website | undefined;
}

/** Adds a website (id, name, domain, goal), or edits one: name, domain, goal, hreflang and AI suggestions. */
export function WebsiteDialog({ opened, website, onClose, onDone }: DialogProps & { opened: boolean }) {
  return (
    <AdminModal opened={opened} onClose={onClose} title={website ? `Edit ${website.name}` : 'Add a website'}>
      {/* Mounted afresh at each opening, so the form starts from the website as it is then. */}
      {opened ? <WebsiteForm website={website} onClose={onClose} onDone={onDone} /> : null}
    </AdminModal>
  );
}

function WebsiteForm({ website, onClose, onDone }: DialogProps) {
  const { draft, command, text, toggle, choice } = useCommandDraft<Draft>(() => draftOf(website), onDone);
  const isNew = !website;

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
    <CommandForm
      onSubmit={() => void save()}
      onCancel={onClose}
      command={command}
      submitLabel={isNew ? 'Add website' : 'Save'}
    >
      {isNew ? (
        <TextInput
          label="Website id"
          description="Lowercase letters, digits and dashes; it never changes"
          {...text('id')}
          data-autofocus
          required
        />
      ) : null}
      <TextInput label="Name" {...text('name')} required />
      <TextInput label="Domain" placeholder="www.example.com" {...text('domain')} required />
      <Select label="Goal" data={GOAL_OPTIONS} {...choice('goal', NO_GOAL)} allowDeselect={false} />
      {isNew ? null : (
        <>
          <Switch label="Hreflang reports" {...toggle('isHreflang')} />
          <Switch label="AI suggestions" {...toggle('isAi')} />
        </>
      )}
    </CommandForm>
  );
}
