import { Alert, Text } from '@mantine/core';
import { Icon } from '../../components/icon.tsx';
import { inactiveReason, thcModuleOf } from '../../lib/modules.ts';
import { useDashboard } from '../../lib/dashboard-context.ts';

const COPY = {
  'missing-module': {
    title: 'Technical Health Check is not active for this website',
    intro:
      'This website does not include the Technical Health Check module. Speak to your account manager to add it; crawl results will then appear here.',
  },
  'missing-setup-id': {
    title: 'Technical Health Check is not set up for this website yet',
    intro:
      'The module is included for this website but its setup is not finished. Your account manager will complete it; crawl results will then appear here.',
  },
} as const;

/** The red 'module inactive' panel (spec §2, §8). */
export function ModuleInactivePanel() {
  const { website } = useDashboard();
  const copy = COPY[inactiveReason(thcModuleOf(website))];
  return (
    <Alert
      color="red"
      variant="light"
      radius="md"
      title={copy.title}
      icon={<Icon name="alert-triangle" size={20} />}
      data-testid="module-inactive"
      styles={{ root: { borderLeft: '4px solid var(--mantine-color-red-7)' } }}
    >
      <Text size="sm" c="dark.6">
        {copy.intro}
      </Text>
    </Alert>
  );
}
