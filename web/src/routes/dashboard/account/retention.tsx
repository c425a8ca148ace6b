import { createFileRoute } from '@tanstack/react-router';
import { getRetention } from '../../../features/retention/api/get-retention.ts';
import { RetentionScreen } from '../../../features/retention/retention-screen.tsx';
import { RecordHistory } from '../../../features/history/record-history.tsx';
import { useSession } from '../../../lib/session/session-context.tsx';

export const Route = createFileRoute('/dashboard/account/retention')({
  component: RetentionPage,
});

/** The retention editor, with the policy's history: one policy per tenant, so its reference is the tenant's. */
function RetentionPage() {
  const { state } = useSession();
  const tenant = state.client ?? '';
  return (
    <RetentionScreen
      history={(policy) => <RecordHistory entity="retention-policy" reference={tenant} readAction={getRetention.action} current={policy} name="the retention policy" />}
    />
  );
}
