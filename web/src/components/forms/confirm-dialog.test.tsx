import { describe, expect, it } from 'vitest';
import { renderSignedIn, userWith } from '../../testing/render-signed-in.tsx';
import { ConfirmContent } from './confirm-dialog.tsx';

// The dialog's window is a portal, which server rendering leaves out: its content is rendered on its own here.
const render = (node: React.ReactNode) => renderSignedIn(node, userWith([]));
const ignore = () => undefined;

describe('confirmation dialogs', () => {
  it('say what the act does, list the refusal lines under their heading and offer Cancel and the act', () => {
    const html = render(
      <ConfirmContent
        message="The user is marked offboarded from now on."
        lines={['params.device_user_reference: Under a legal hold']}
        linesTitle="The server refused"
        busy={false}
        confirmLabel="Offboard"
        onCancel={ignore}
        onConfirm={ignore}
      />,
    );
    expect(html).toContain('The user is marked offboarded from now on.');
    expect(html).toContain('The server refused');
    expect(html).toContain('params.device_user_reference: Under a legal hold');
    expect(html).toMatch(/>Cancel</);
    expect(html).toMatch(/>Offboard</);
  });

  it('show the form summary heading by default when refused, and no error heading before a refusal', () => {
    const refused = render(<ConfirmContent message="m" lines={['params.app_reference: In use']} busy={false} confirmLabel="Delete" onCancel={ignore} onConfirm={ignore} />);
    expect(refused).toContain('Please correct the following');
    expect(refused).toContain('params.app_reference: In use');
    const asked = render(<ConfirmContent message="m" lines={[]} busy={false} confirmLabel="Delete" onCancel={ignore} onConfirm={ignore} />);
    expect(asked).not.toContain('Please correct the following');
    expect(asked).not.toContain('role="alert"');
  });

  it('colour the act as asked and offer the extra way round between Cancel and the act', () => {
    const html = render(
      <ConfirmContent
        message="m"
        lines={[]}
        busy={false}
        confirmLabel="Delete"
        confirmColor="red.9"
        onCancel={ignore}
        onConfirm={ignore}
        extra={<button type="button">Delete and remove from these groups</button>}
      />,
    );
    expect(html).toContain('--button-bg:var(--mantine-color-red-9)');
    expect(html).toMatch(/>Cancel<[\s\S]*Delete and remove from these groups[\s\S]*>Delete</);
  });
});
