import { Alert, List } from '@mantine/core';
import { ApiError } from '../../lib/api-error.ts';

/** The `path: message` lines of a refused request: the server's (ApiError) or the form's own check. */
export function errorLinesOf(error: unknown): string[] {
  if (error instanceof ApiError) return [...error.lines];
  if (error instanceof Error && error.message !== '') return error.message.split('\n');
  return [];
}

/** Shows refused input beside the form that sent it, one `path: message` line each (spec point 5). */
export function ErrorLines({ title = 'Please correct the following', lines }: { title?: string; lines: readonly string[] }) {
  if (lines.length === 0) return null;
  return (
    // The default variant keeps text at full contrast in both colour schemes; the red border marks it as a problem.
    <Alert variant="default" title={title} role="alert" styles={{ root: { borderColor: 'var(--mantine-color-red-filled)', borderWidth: 2 } }}>
      <List size="sm" spacing={2}>
        {lines.map((line) => (
          <List.Item key={line}>{line}</List.Item>
        ))}
      </List>
    </Alert>
  );
}
