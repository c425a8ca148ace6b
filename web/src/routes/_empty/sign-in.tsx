import { Alert, Anchor, Button, Loader, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { createFileRoute, Link, useNavigate } from '@tanstack/react-router';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { z } from 'zod/mini';
import { useSession } from '../../lib/session/session-context.tsx';
import { ADMIN_CLIENT } from '#shared/constants/limits.ts';
import { useDocumentTitle } from '../../lib/use-document-title.ts';

/**
 * One search value from the identity provider's redirect. The router parses search as JSON, so an all-digit value
 * arrives as a number; anything else unexpected is dropped rather than failing the page.
 */
const SearchText = z.catch(
  z.optional(
    z.pipe(
      z.transform((value: unknown) => (typeof value === 'number' ? String(value) : value)),
      z.string().check(z.maxLength(4096)),
    ),
  ),
  undefined,
);

/** Where to go after signing in: a path inside the portal only (never `//host`, never another origin). */
const InternalPath = z.catch(
  z.optional(z.string().check(z.maxLength(2048), z.regex(/^\/(?!\/)[^\s\\]*$/))),
  undefined,
);

/** `/sign-in?code=…&state=…` is where the OAuth2 code flow lands (DESIGN.md §6). */
export const SignInSearch = z.object({
  code: SearchText,
  state: SearchText,
  error: SearchText,
  error_description: SearchText,
  redirect: InternalPath,
});
export type SignInSearch = z.infer<typeof SignInSearch>;

export const Route = createFileRoute('/_empty/sign-in')({
  validateSearch: SignInSearch,
  component: SignInPage,
});

const ORGANISATION = /^[a-z0-9][a-z0-9-]{0,62}$/;

function SignInPage() {
  useDocumentTitle('Sign in');
  const search = Route.useSearch();
  return (
    <Paper withBorder shadow="sm" p="xl" radius="md">
      <Stack>
        <Title order={1} size="h2">
          Sign in to Verity
        </Title>
        {search.code !== undefined ? <CodeExchange code={search.code} state={search.state} /> : <SignInForm error={search.error_description ?? search.error} />}
        <Anchor component={Link} to="/" size="sm">
          Back to the home page
        </Anchor>
      </Stack>
    </Paper>
  );
}

/** Step one: which organisation, then off to its identity provider. */
function SignInForm({ error }: { error: string | undefined }) {
  const { session, state } = useSession();
  const [client, setClient] = useState(state.client ?? '');
  const [problem, setProblem] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const value = client.trim().toLowerCase();
    if (!ORGANISATION.test(value)) {
      setProblem('Enter your organisation’s code: lower-case letters, digits and hyphens.');
      return;
    }
    setProblem(undefined);
    setBusy(true);
    try {
      await session.login(value);
    } catch (failure) {
      setBusy(false);
      setProblem(failure instanceof Error ? failure.message : 'The sign-in page could not be reached.');
    }
  };

  return (
    <form onSubmit={(event) => void submit(event)} noValidate>
      <Stack>
        {error !== undefined && (
          <Alert color="red" title="The identity provider refused the sign-in">
            {error}
          </Alert>
        )}
        <TextInput
          label="Organisation"
          description={`Your organisation's code, as your administrator gave it (provider staff: ${ADMIN_CLIENT}).`}
          value={client}
          onChange={(event) => setClient(event.currentTarget.value)}
          error={problem}
          autoComplete="organization"
          required
          data-autofocus
        />
        <Button type="submit" loading={busy}>
          Continue to sign in
        </Button>
      </Stack>
    </form>
  );
}

/** Step two: the identity provider sent us back with a code; exchange it once and go on. */
function CodeExchange({ code, state }: { code: string; state: string | undefined }) {
  const { session } = useSession();
  const navigate = useNavigate();
  const { redirect } = Route.useSearch();
  const [failed, setFailed] = useState(false);
  // React's strict mode runs effects twice in development; a code can be redeemed only once.
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    void session.completeSignIn(code, state).then((ok) => {
      if (!ok) {
        setFailed(true);
        return;
      }
      const home = session.isAdmin ? '/internal' : '/dashboard';
      void navigate({ to: redirect ?? home, replace: true });
    });
  }, [code, state, redirect, session, navigate]);

  if (failed) {
    return (
      <Stack>
        <Alert color="red" title="Sign-in failed">
          The sign-in could not be completed. The link may have expired or been used already.
        </Alert>
        <Button component={Link} to="/sign-in" variant="light">
          Try again
        </Button>
      </Stack>
    );
  }
  return (
    <Stack align="center" role="status">
      <Loader aria-hidden />
      <Text>Signing you in…</Text>
    </Stack>
  );
}
