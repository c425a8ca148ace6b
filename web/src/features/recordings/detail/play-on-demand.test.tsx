import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { renderSignedIn, userWith } from '../../../testing/render-signed-in.tsx';
import { DownloadButton } from './download-button.tsx';
import { VideoPlayer } from './video-player.tsx';

const render = (node: ReactNode, actions: string[]) => renderSignedIn(node, userWith(actions));
const REF = '01J0000000000000000000REF1';

describe('nothing of a recording is asked for before it is played or opened', () => {
  it('renders a video without its link: no src, nothing preloaded, a Play button that will ask for it', () => {
    const html = render(
      <VideoPlayer
        src={undefined}
        onStart={async () => undefined}
        length={10}
        comments={[]}
        selectedCommentId={undefined}
        selectable={false}
        onSpanSelected={() => undefined}
        onCommentSelected={() => undefined}
        onLinkFailed={() => undefined}
        controls={{ current: null }}
      />,
      ['payloads:Play'],
    );
    expect(html).toMatch(/<video[^>]*preload="none"/);
    expect(html).not.toMatch(/<video[^>]*\ssrc=/);
    expect(html).toMatch(/<button[^>]*>.*Play.*<\/button>/s);
  });
});

describe('download is offered only to a role that may take a copy', () => {
  it('renders no Download for a reviewer (payloads:Play only), and one for payloads:Download', () => {
    expect(render(<DownloadButton payloadReference={REF} />, ['payloads:Play', 'payloads:Read'])).not.toContain('Download');
    expect(render(<DownloadButton payloadReference={REF} />, ['payloads:Download', 'payloads:Play'])).toMatch(/<button[^>]*data-requires-action="payloads:Download"/);
  });
});
