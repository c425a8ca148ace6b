import { createFileRoute } from '@tanstack/react-router';
import { z } from 'zod/mini';
import { LEGAL_HOLD_TARGET_TYPES } from '#shared/constants/account.ts';
import { LegalHoldsScreen } from '../../../features/legal-holds/legal-holds-screen.tsx';
import { listLegalHolds } from '../../../features/legal-holds/api/list-legal-holds.ts';
import { RecordHistory } from '../../../features/history/record-history.tsx';
import { legalHoldHistoryReference } from '../../../features/history/record-references.ts';
import { LEGAL_HOLD_TARGET_LABELS } from '../../../lib/labels.ts';

/** Filters in the URL; junk falls back to the default (active holds on everyone). */
const LegalHoldsSearch = z.object({
  show: z.catch(z.optional(z.enum(['all'])), undefined),
  type: z.catch(z.optional(z.enum(LEGAL_HOLD_TARGET_TYPES)), undefined),
  /** One hold's target (a held record's link opens its hold). */
  target: z.catch(z.optional(z.string().check(z.minLength(1), z.maxLength(255))), undefined),
});

export const Route = createFileRoute('/dashboard/account/legal-holds')({
  validateSearch: LegalHoldsSearch,
  component: LegalHoldsPage,
});

function LegalHoldsPage() {
  const filters = Route.useSearch();
  const navigate = Route.useNavigate();
  return (
    <LegalHoldsScreen
      filters={filters}
      onFilters={(next) => void navigate({ search: next, replace: true })}
      // A hold is named by whom it holds, as the list names them.
      history={(hold) => (
        <RecordHistory
          entity="legal-hold"
          reference={legalHoldHistoryReference(hold)}
          readAction={listLegalHolds.action}
          current={hold}
          name={`the hold on ${LEGAL_HOLD_TARGET_LABELS[hold.target_type].toLowerCase()} ${hold.target}`}
          size="xs"
        />
      )}
    />
  );
}
