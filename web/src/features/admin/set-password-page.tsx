import { useState, type FormEvent } from 'react';
import { Alert, Anchor, Button, Center, Paper, PasswordInput, Stack, Text, Title } from '@mantine/core';
import { ApiError } from '../../api/client.ts';
import { setPasswordWithLink } from '../../api/admin.ts';
import { BrandMark } from '../../components/brand-mark.tsx';
import { Icon } from '../../components/icon.tsx';
import { SECTION_PATH } from '../../lib/routes.ts';

/** Where an invitation or password reset link lands: choose a password, then sign in with it. */
export function SetPasswordPage() {
  const token = new URLSearchParams(window.location.search).get('token') ?? '';
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const [error, setError] = useState<{ message: string; field?: string } | null>(null);
  const [isSubmitting, setSubmitting] = useState(false);
  const [doneFor, setDoneFor] = useState<string | null>(null);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (password !== repeat) return setError({ message: 'The two passwords differ', field: 'repeat' });
    setError(null);
    setSubmitting(true);
    try {
      setDoneFor((await setPasswordWithLink(token, password)).email);
    } catch (caught) {
      const field = caught instanceof ApiError ? caught.body?.field : undefined;
      setError({
        message: caught instanceof Error ? caught.message : String(caught),
        field: typeof field === 'string' ? field : undefined,
      });
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <Center component="main" mih="100vh" p="md" bg="var(--thc-page-bg)">
      <Stack w="100%" maw={400} gap="lg">
        <Center>
          <BrandMark size="lg" />
        </Center>
        <Paper withBorder shadow="xs" radius="md" p="xl" component="section" aria-labelledby="set-password-title">
          {doneFor ? (
            <Stack gap="md">
              <Title order={1} id="set-password-title" fz="h3">
                Password saved
              </Title>
              <Text size="sm">You can now sign in as {doneFor} with your new password.</Text>
              <Button component="a" href={SECTION_PATH} fullWidth>
                Sign in
              </Button>
            </Stack>
          ) : (
            <form onSubmit={(e) => void submit(e)} noValidate>
              <Stack gap="md">
                <div>
                  <Title order={1} id="set-password-title" fz="h3">
                    Choose your password
                  </Title>
                  <Text size="sm" c="dimmed" mt={4}>
                    At least 8 characters. The link works once.
                  </Text>
                </div>
                {error && error.field !== 'password' && error.field !== 'repeat' ? (
                  <Alert color="red" variant="light" role="alert" icon={<Icon name="alert-triangle" size={18} />}>
                    {error.message}
                  </Alert>
                ) : null}
                <PasswordInput
                  label="New password"
                  autoComplete="new-password"
                  required
                  autoFocus
                  value={password}
                  onChange={(e) => setPassword(e.currentTarget.value)}
                  error={error?.field === 'password' ? error.message : undefined}
                />
                <PasswordInput
                  label="Repeat the password"
                  autoComplete="new-password"
                  required
                  value={repeat}
                  onChange={(e) => setRepeat(e.currentTarget.value)}
                  error={error?.field === 'repeat' ? error.message : undefined}
                />
                <Button type="submit" fullWidth loading={isSubmitting}>
                  Save password
                </Button>
              </Stack>
            </form>
          )}
        </Paper>
        <Text size="xs" c="dimmed" ta="center">
          <Anchor href={SECTION_PATH} size="xs">
            Back to sign in
          </Anchor>
        </Text>
      </Stack>
    </Center>
  );
}
