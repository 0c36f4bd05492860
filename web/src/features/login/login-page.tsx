import { useState, type FormEvent } from 'react';
import { Alert, Button, Center, Paper, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { ApiError } from '../../api/client.ts';
import { useSessionStore } from '../../stores/session-store.ts';
import { BrandMark } from '../../components/brand-mark.tsx';
import { Icon } from '../../components/icon.tsx';
import { formatWait } from '../../../../catalog/format.ts';

function loginErrorText(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.status === 401) return error.message || 'The email or password is incorrect.';
    // A disabled account, told only to whoever gave its right password.
    if (error.status === 403) return error.message;
    if (error.status === 429) {
      const wait = error.retryAfterSeconds === undefined ? 'a moment' : formatWait(error.retryAfterSeconds);
      return `Too many sign-in attempts. Please wait ${wait} and try again.`;
    }
    if (error.status === 400) return 'Enter your email address and password.';
  }
  return 'We could not sign you in just now. Please try again later.';
}

/** Shown on any route while signed out; the address is kept, so a deep link opens after signing in. */
export function LoginPage() {
  const login = useSessionStore((s) => s.login);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [isSubmitting, setSubmitting] = useState(false);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setError(null);
    if (!email.trim() || !password) {
      setError('Enter your email address and password.');
      return;
    }
    setSubmitting(true);
    try {
      await login(email.trim(), password);
    } catch (caught) {
      setError(loginErrorText(caught));
      setSubmitting(false);
    }
  };

  return (
    <Center component="main" mih="100vh" p="md" bg="var(--thc-page-bg)">
      <Stack w="100%" maw={400} gap="lg">
        <Center>
          <BrandMark size="lg" />
        </Center>
        <Paper withBorder shadow="xs" radius="md" p="xl" component="section" aria-labelledby="login-title">
          <form onSubmit={(e) => void submit(e)} noValidate>
            <Stack gap="md">
              <div>
                <Title order={1} id="login-title" fz="h3">
                  Sign in
                </Title>
                <Text size="sm" c="dimmed" mt={4}>
                  Use the email address your account manager registered for you.
                </Text>
              </div>
              {error ? (
                <Alert color="red" variant="light" role="alert" icon={<Icon name="alert-triangle" size={18} />}>
                  {error}
                </Alert>
              ) : null}
              <TextInput
                label="Email address"
                type="email"
                name="email"
                autoComplete="username"
                required
                autoFocus
                value={email}
                onChange={(e) => setEmail(e.currentTarget.value)}
              />
              <PasswordInput
                label="Password"
                name="password"
                autoComplete="current-password"
                required
                value={password}
                onChange={(e) => setPassword(e.currentTarget.value)}
              />
              <Button type="submit" fullWidth loading={isSubmitting}>
                Sign in
              </Button>
            </Stack>
          </form>
        </Paper>
        <Text size="xs" c="dimmed" ta="center">
          Trouble signing in? Contact your account manager.
        </Text>
      </Stack>
    </Center>
  );
}
