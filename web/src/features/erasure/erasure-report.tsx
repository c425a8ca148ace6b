import { Anchor, List, Stack, Table, Text, Title } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import type { ErasureKindOutcome, ErasureRequest } from '#shared/contract/entities/erasure-requests.ts';
import { StackedBarChart } from '../../components/charts/stacked-bar-chart.tsx';
import { actorName } from '../../lib/actor-name.ts';
import { formatDateTime, formatNumber } from '../../lib/format.ts';
import {
  dayOf,
  erasedAndKeptBars,
  erasedOrToErase,
  erasedSegmentLabel,
  erasedSpan,
  ERASURE_CHANNEL_LABELS,
  ERASURE_KIND_LABELS,
  holdWords,
  keptWords,
  recordsWord,
  requesterWords,
  totalsOf,
} from './erasure-model.ts';
import './erasure-print.css';

/** The first sentences of the report: what was asked, and what became of it, in totals. */
export function reportSummary(request: ErasureRequest, person: string): string {
  const asked = `${requesterWords(request.requester)} asked on ${dayOf(request.received_at)} (${ERASURE_CHANNEL_LABELS[request.channel].toLowerCase()}) for the personal data of ${person} to be erased.`;
  const { erased, kept } = totalsOf(request);
  switch (request.erasure_state) {
    case 'Completed':
      return `${asked} ${recordsWord(erased)} ${erased === 1 ? 'was' : 'were'} erased and ${formatNumber(kept)} ${kept === 1 ? 'is' : 'are'} kept, each under the exception named below, until the date given.`;
    case 'Rejected':
      return `${asked} The decision was rejected on review: nothing was erased.`;
    case 'Failed':
      return request.review === undefined
        ? `${asked} The decision could not be finished: nothing was erased.`
        : `${asked} The erasure stopped before it finished: the ${recordsWord(erased)} listed as erased below ${erased === 1 ? 'was' : 'were'} erased, and ${formatNumber(kept)} ${kept === 1 ? 'is' : 'are'} kept.`;
    case 'Decided':
    case 'Approved':
    case 'Erasing':
      return `${asked} The decision marks ${recordsWord(erased)} to be erased and keeps ${formatNumber(kept)}, each under the exception named below.`;
    default:
      return `${asked} The records about them are still being looked at.`;
  }
}

/** Why a kind's records are kept, one line per exception, holds linked to where they are shown. */
function KeptCell({ outcome }: { outcome: ErasureKindOutcome }) {
  if (outcome.kept.length === 0) return <Text size="sm">{outcome.found === 0 ? 'Nothing found' : 'None kept'}</Text>;
  return (
    <Stack gap={4}>
      {outcome.kept.map((kept) => (
        <Text size="sm" key={`${kept.exception}:${kept.kept_until ?? ''}:${(kept.holds ?? []).map((hold) => hold.target).join(',')}`}>
          {keptWords(kept, outcome.record_type)}
          {(kept.holds ?? []).map((hold) => (
            <Anchor
              key={`${hold.target_type}:${hold.target}`}
              size="sm"
              ml={4}
              data-erasure-no-print
              renderRoot={(props) => <Link {...props} to="/dashboard/account/legal-holds" search={{ show: 'all', target: hold.target }} />}
            >
              See {holdWords(hold)}
            </Anchor>
          ))}
        </Text>
      ))}
    </Stack>
  );
}

/** The erased (or to be erased) count of a kind, with the erased records' dates once run. */
function ErasedCell({ outcome, request }: { outcome: ErasureKindOutcome; request: ErasureRequest }) {
  const count = erasedOrToErase(outcome, request.erasure_state);
  const span = erasedSpan(outcome);
  return (
    <Text size="sm">
      {formatNumber(count)}
      {span !== '' && count > 0 ? `, ${span}` : ''}
    </Text>
  );
}

/**
 * The report for the person (and the decision before it runs): a picture of erased against kept by kind, then each
 * kind in words: how many were found, erased (with their dates) and kept, under which exception and until when.
 * Marked for the print stylesheet: printing the request's page prints this alone, to hand or send to the person.
 */
export function ErasureReport({ request, person }: { request: ErasureRequest; person: string }) {
  const erasedLabel = erasedSegmentLabel(request.erasure_state);
  const completed = request.erasure_state === 'Completed';
  return (
    <section data-erasure-report aria-labelledby="erasure-report-title">
      <Stack gap="md">
        <Title order={2} size="h3" id="erasure-report-title">
          {completed ? `Erasure report for ${person}` : `Decision for ${person}`}
        </Title>
        <Text>{reportSummary(request, person)}</Text>
        <List size="sm" spacing={2}>
          {request.decided_at !== undefined && <List.Item>Decided {formatDateTime(request.decided_at)}</List.Item>}
          {request.review !== undefined && (
            <List.Item>
              {request.review.decision === 'Approve' ? 'Approved' : 'Rejected'} {formatDateTime(request.review.reviewed_at)} by{' '}
              {actorName(request.review.reviewed_by_actor, request.review.reviewed_by)}: “{request.review.reason}”
            </List.Item>
          )}
          {request.completed_at !== undefined && <List.Item>Erasure completed {formatDateTime(request.completed_at)}</List.Item>}
        </List>
        <StackedBarChart
          title={completed ? 'Erased and kept, by kind of record' : 'To be erased and kept, by kind of record'}
          segments={[erasedLabel, 'Kept']}
          data={erasedAndKeptBars(request)}
          labelHeader="Kind of record"
          titleOrder={3}
          emptyText="No record about the person was found."
        />
        <Table aria-label="Records about the person, by kind" withTableBorder>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">Kind of record</Table.Th>
              <Table.Th scope="col">Found</Table.Th>
              <Table.Th scope="col">{erasedLabel}</Table.Th>
              <Table.Th scope="col">Kept, why, and until when</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {request.outcomes.map((outcome) => (
              <Table.Tr key={outcome.kind}>
                <Table.Th scope="row" fw={500}>
                  {ERASURE_KIND_LABELS[outcome.kind]}
                </Table.Th>
                <Table.Td>{formatNumber(outcome.found)}</Table.Td>
                <Table.Td>
                  <ErasedCell outcome={outcome} request={request} />
                </Table.Td>
                <Table.Td>
                  <KeptCell outcome={outcome} />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
        <Text size="xs" c="dimmed">
          GDPR Art 17(3)(b): kept because a law the firm is subject to requires keeping the record for a period. Art
          17(3)(e): kept because it is needed to establish, exercise or defend legal claims (a legal hold). Each erased
          record leaves a disposal record naming this request.
        </Text>
      </Stack>
    </section>
  );
}
