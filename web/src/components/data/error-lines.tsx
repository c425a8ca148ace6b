import { Alert, List } from '@mantine/core';

/** The `path: message` lines of a refused request (kept here too for the screens that import it from here). */
export { errorLinesOf } from '../../lib/form-errors.ts';

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
