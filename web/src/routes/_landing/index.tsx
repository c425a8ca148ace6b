import { Button, Group, List, Stack, Text, Title } from '@mantine/core';
import { createFileRoute, Link } from '@tanstack/react-router';
import { useDocumentTitle } from '../../lib/use-document-title.ts';

export const Route = createFileRoute('/_landing/')({
  component: LandingPage,
});

function LandingPage() {
  useDocumentTitle();
  return (
    <Stack gap="lg" maw={720}>
      <Title order={1}>Compliance recording you can prove</Title>
      <Text size="lg">
        Verity records the calls, messages, media and locations of managed mobile devices, keeps them encrypted and
        tamper-evident for as long as your regulator asks, and lets your compliance team find, play and export them.
      </Text>
      <List spacing="xs">
        <List.Item>Calls, SMS, MMS, RCS, photos, videos, interviews, GPS and diagnostics from every work phone.</List.Item>
        <List.Item>Encrypted on the device, checked on arrival, stored under object lock.</List.Item>
        <List.Item>Every play, download and transfer is audited.</List.Item>
      </List>
      <Group>
        <Button component={Link} to="/sign-in" size="md">
          Sign in to your portal
        </Button>
      </Group>
    </Stack>
  );
}
