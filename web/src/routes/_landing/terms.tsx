import { Alert, Button, Group, Stack, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { createFileRoute, useNavigate } from '@tanstack/react-router';
import { CURRENT_TERMS } from '#shared/constants/terms.ts';
import { useSession } from '../../lib/session/session-context.tsx';
import { acceptTermsEndpoint } from '../../features/terms/api/accept-terms.ts';
import { termsStatusOptions } from '../../features/terms/api/get-terms-status.ts';
import { rememberTermsAccepted } from '../../features/terms/terms-guard.ts';
import { formatDate, formatDateTime } from '../../lib/format.ts';
import { useDocumentTitle } from '../../lib/use-document-title.ts';

export const Route = createFileRoute('/_landing/terms')({
  component: TermsPage,
});

/** The terms of use; a signed-in tenant user who has not accepted them yet accepts them here. */
function TermsPage() {
  useDocumentTitle('Terms of use');
  const { session } = useSession();
  const canAccept = session.isLoggedIn && !session.isAdmin && !session.isSupportMode;
  const status = useQuery({ ...termsStatusOptions(session), enabled: canAccept });
  const terms = status.data ?? CURRENT_TERMS;
  return (
    <Stack maw={760}>
      <Title order={1}>Terms of use</Title>
      <Text c="dimmed" size="sm">
        In force from {formatDate(terms.valid_from)}
      </Text>
      {terms.termsAndConditions.split('\n\n').map((paragraph) => (
        <Text key={paragraph.slice(0, 40)}>{paragraph}</Text>
      ))}
      {canAccept && status.data !== undefined && <Acceptance accepted={status.data.accepted} acceptedAt={status.data.accepted_at} validFrom={status.data.valid_from} />}
    </Stack>
  );
}

function Acceptance({ accepted, acceptedAt, validFrom }: { accepted: boolean; acceptedAt?: string; validFrom: string }) {
  const { session } = useSession();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const accept = useMutation({
    mutationFn: () => session.call(acceptTermsEndpoint, { body: { valid_from: validFrom } }),
    onSuccess: async (status) => {
      queryClient.setQueryData(termsStatusOptions(session).queryKey, status);
      rememberTermsAccepted(session);
      await navigate({ to: '/dashboard' });
    },
  });
  if (accepted) {
    return (
      <Alert color="green" title="Accepted">
        You accepted these terms on {formatDateTime(acceptedAt)}.
      </Alert>
    );
  }
  return (
    <Alert color="cerulean" title="Please read and accept these terms to continue">
      <Group mt="sm">
        <Button onClick={() => accept.mutate()} loading={accept.isPending}>
          I accept these terms
        </Button>
        <Button variant="default" onClick={() => session.logout()}>
          Sign out
        </Button>
      </Group>
    </Alert>
  );
}
