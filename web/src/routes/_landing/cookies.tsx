import { Stack, Table, Text, Title } from '@mantine/core';
import { createFileRoute } from '@tanstack/react-router';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { LOCALE_COOKIE } from '../../lib/locale-cookie.ts';

export const Route = createFileRoute('/_landing/cookies')({
  component: CookiesPage,
});

function CookiesPage() {
  useDocumentTitle('Cookies');
  return (
    <Stack maw={760}>
      <Title order={1}>Cookies and local storage</Title>
      <Text>
        Verity sets one cookie and keeps a few values in your browser&rsquo;s storage. None of them track you across
        sites, and none are shared with anyone.
      </Text>
      <Table aria-label="What Verity stores in your browser" withTableBorder>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">Name</Table.Th>
            <Table.Th scope="col">Kind</Table.Th>
            <Table.Th scope="col">Why</Table.Th>
            <Table.Th scope="col">Kept for</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          <Table.Tr>
            <Table.Td>{LOCALE_COOKIE}</Table.Td>
            <Table.Td>Cookie</Table.Td>
            <Table.Td>Your language and formats (English, United Kingdom)</Table.Td>
            <Table.Td>365 days</Table.Td>
          </Table.Tr>
          <Table.Tr>
            <Table.Td>verity.auth</Table.Td>
            <Table.Td>Local storage</Table.Td>
            <Table.Td>Keeps you signed in: your tokens, organisation and permissions</Table.Td>
            <Table.Td>Until you sign out</Table.Td>
          </Table.Tr>
          <Table.Tr>
            <Table.Td>verity.color-scheme</Table.Td>
            <Table.Td>Local storage</Table.Td>
            <Table.Td>Your colour mode: system, light or dark</Table.Td>
            <Table.Td>Until you change it</Table.Td>
          </Table.Tr>
          <Table.Tr>
            <Table.Td>verity.sign-in-state, verity.chunk-reload</Table.Td>
            <Table.Td>Session storage</Table.Td>
            <Table.Td>Protects a sign-in in progress; avoids reload loops after an update</Table.Td>
            <Table.Td>Until the tab closes</Table.Td>
          </Table.Tr>
        </Table.Tbody>
      </Table>
    </Stack>
  );
}
