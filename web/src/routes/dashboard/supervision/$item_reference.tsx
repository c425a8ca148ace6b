import { Loader } from '@mantine/core';
import { CatchBoundary, createFileRoute } from '@tanstack/react-router';
import { Suspense } from 'react';
import { LEXICON_MESSAGE_TYPES } from '#shared/constants/supervision.ts';
import { usePayload } from '../../../features/recordings/api/get-payload.ts';
import { RecordingMedia } from '../../../features/recordings/detail/recording-media.tsx';
import { useSupervisionItem } from '../../../features/supervision/api/get-item.ts';
import { SupervisionItemPage } from '../../../features/supervision/item/item-detail.tsx';
import { getSupervisionItem } from '../../../features/supervision/api/get-item.ts';
import { personOf } from '../../../features/supervision/item/item-words.ts';
import { RecordHistory } from '../../../features/history/record-history.tsx';
import { PAYLOAD_TYPE_LABELS } from '../../../lib/labels.ts';

const MESSAGE_TYPES: ReadonlySet<string> = new Set(LEXICON_MESSAGE_TYPES);

export const Route = createFileRoute('/dashboard/supervision/$item_reference')({
  // The page renders once the item is here; a refused fetch stays in the query cache and the page shows it under its
  // own title (SupervisionItemPage's boundary). The API module is imported here, not statically, so the supervision
  // contract stays out of the first chunk.
  loader: async ({ context, params }) => {
    const { supervisionItemQueryOptions } = await import('../../../features/supervision/api/get-item.ts');
    await context.queryClient.ensureQueryData(supervisionItemQueryOptions(context.session, params.item_reference)).catch(() => undefined);
  },
  pendingComponent: () => <Loader aria-label="Loading the review item" />,
  component: ItemPage,
});

function ItemPage() {
  const { item_reference: itemReference } = Route.useParams();
  return (
    <SupervisionItemPage
      itemReference={itemReference}
      recording={<ItemRecording itemReference={itemReference} />}
      // Named as its page names it: the recording's kind and the supervised person.
      history={(item) => (
        <RecordHistory
          entity="supervision-item"
          reference={item.item_reference}
          readAction={getSupervisionItem.action}
          current={item}
          name={`the review of the ${PAYLOAD_TYPE_LABELS[item.payload_type].toLowerCase()} of ${personOf(item)}`}
        />
      )}
    />
  );
}

/**
 * A call, interview, photo or video under review plays or shows as on its recording page (the recordings feature's
 * player, composed here since no feature imports another). A message's text is the page's own highlighted text, so
 * its conversation is not fetched again. A recording that cannot be shown leaves the review page standing.
 */
function ItemRecording({ itemReference }: { itemReference: string }) {
  const { data: item } = useSupervisionItem(itemReference);
  if (MESSAGE_TYPES.has(item.payload_type)) return null;
  return (
    <CatchBoundary getResetKey={() => itemReference} errorComponent={() => null}>
      <Suspense fallback={<Loader size="sm" aria-label="Loading the recording" />}>
        <Recording reference={itemReference} />
      </Suspense>
    </CatchBoundary>
  );
}

function Recording({ reference }: { reference: string }) {
  const { data } = usePayload(reference);
  return <RecordingMedia payload={data} />;
}
