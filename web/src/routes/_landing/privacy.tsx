import { Stack, Text, Title } from '@mantine/core';
import { createFileRoute } from '@tanstack/react-router';
import { useDocumentTitle } from '../../lib/use-document-title.ts';

export const Route = createFileRoute('/_landing/privacy')({
  component: PrivacyPage,
});

function PrivacyPage() {
  useDocumentTitle('Privacy');
  return (
    <Stack maw={760}>
      <Title order={1}>Privacy</Title>
      <Text>
        Verity processes recordings on behalf of the organisation that employs the device user. That organisation
        decides what is recorded, who may see it and how long it is kept; Verity acts on its instructions.
      </Text>
      <Title order={2} size="h3">
        What we hold
      </Title>
      <Text>
        Recordings and their metadata (parties, times, places) uploaded by managed devices; the names and email addresses
        of portal users; an audit trail of who played, downloaded, transferred or changed what, and when.
      </Text>
      <Title order={2} size="h3">
        How it is protected
      </Title>
      <Text>
        Recordings are encrypted on the device and stay encrypted at rest under keys held per organisation. Provider staff
        can see an organisation&rsquo;s data only after that organisation approves a time-limited support request, and
        every such action is recorded.
      </Text>
      <Title order={2} size="h3">
        Your rights
      </Title>
      <Text>
        To see, correct or erase what is held about you, ask your organisation&rsquo;s compliance officer: they control
        the records and their retention.
      </Text>
    </Stack>
  );
}
