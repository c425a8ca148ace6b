import { Alert, Box, Group, List, Paper, Stack, Text, Textarea, Title } from '@mantine/core';
import { useDeferredValue, useMemo, useState } from 'react';
import type { SupervisionPolicy } from '#shared/contract/entities/supervision.ts';
import { formatNumber } from '../../../lib/format.ts';
import { compileTester, testText, type PieceKind } from './tester-model.ts';

/** How each kind of piece shows; the legend says the same in words, so nothing is told by colour alone. */
const PIECE_STYLES: Record<Exclude<PieceKind, 'plain'>, { style: React.CSSProperties; label: string }> = {
  hit: { style: { background: 'var(--mantine-color-yellow-3)', color: 'var(--mantine-color-black)', fontWeight: 600 }, label: 'raises an item' },
  suppressed: { style: { textDecoration: 'line-through', background: 'var(--mantine-color-gray-3)', color: 'var(--mantine-color-black)' }, label: 'matched, but inside ignored text' },
  ignored: { style: { background: 'var(--mantine-color-gray-2)', color: 'var(--mantine-color-black)', fontStyle: 'italic' }, label: 'ignored (an ignore policy)' },
};

/**
 * The term tester: a sample text read live, in the browser, with the policy as drafted and the tenant's other enabled
 * policies that change what it raises (tester-model.ts). Terms with a problem are left out until fixed.
 */
export function TermTester({ reference, kind, terms, others, othersPartial, initialSample = '' }: {
  reference: string;
  kind: 'Lexicon' | 'Ignore';
  terms: readonly string[];
  others: readonly SupervisionPolicy[];
  othersPartial: boolean;
  /** The text the tester opens with (empty: the reader pastes one). */
  initialSample?: string;
}) {
  const [sample, setSample] = useState(initialSample);
  const text = useDeferredValue(sample);
  const compiled = useMemo(() => compileTester({ draft: { reference, kind, terms }, others }), [reference, kind, terms, others]);
  const result = useMemo(() => testText(compiled, text), [compiled, text]);
  const raised = result.reading.hits.reduce((sum, hit) => sum + hit.matches.length, 0);
  const companions = kind === 'Lexicon' ? 'every enabled ignore policy' : 'every enabled lexicon and ignore policy';
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="term-tester-title">
      <Stack gap="sm">
        <Title order={2} size="h4" id="term-tester-title">
          Term tester
        </Title>
        <Text size="sm" c="dimmed">
          Paste a sample message or note: matches show as you type, read with this policy as drafted and {companions} (their
          scope is not applied here). Nothing is sent to the server.
          {othersPartial ? ' Only the first 100 policies are read.' : ''}
        </Text>
        <Textarea label="Sample text" value={sample} onChange={(event) => setSample(event.currentTarget.value)} autosize minRows={3} maxRows={12} maxLength={65_536} />
        {text !== '' && (
          <>
            <Box
              data-testid="term-tester-result"
              aria-label="The sample with its matches marked"
              p="sm"
              style={{ whiteSpace: 'pre-wrap', border: '1px solid var(--mantine-color-default-border)', borderRadius: 4 }}
            >
              {result.pieces.map((piece, index) =>
                piece.kind === 'plain' ? (
                  <span key={index}>{piece.text}</span>
                ) : (
                  <mark key={index} data-kind={piece.kind} title={PIECE_STYLES[piece.kind].label} style={PIECE_STYLES[piece.kind].style}>
                    {piece.text}
                  </mark>
                ),
              )}
            </Box>
            <Group gap="md">
              {Object.entries(PIECE_STYLES).map(([pieceKind, { style, label }]) => (
                <Text size="xs" key={pieceKind}>
                  <mark style={style}>sample</mark> {label}
                </Text>
              ))}
            </Group>
            <Text size="sm" aria-live="polite">
              {raised === 0 ? 'Nothing in this text would raise an item.' : `${formatNumber(raised)} ${raised === 1 ? 'match raises' : 'matches raise'} an item.`}
            </Text>
            {result.tallies.length > 0 && (
              <List size="sm" spacing={2}>
                {result.tallies.map((tally) => (
                  <List.Item key={`${tally.policy_reference}:${tally.term}`}>
                    “{tally.term}” ({tally.policy_reference}): {formatNumber(tally.raised)} raised
                    {tally.suppressed > 0 ? `, ${formatNumber(tally.suppressed)} suppressed by ignored text` : ''}
                  </List.Item>
                ))}
              </List>
            )}
            {result.ignoredBy.length > 0 && (
              <Text size="sm">
                Ignored text marked by: {result.ignoredBy.map((entry) => `“${entry.term}” (${entry.policy_reference})`).join(', ')}.
              </Text>
            )}
          </>
        )}
        {compiled.refused.length > 0 && (
          <Alert variant="default" title="Terms the tester left out">
            {compiled.refused.map((refused) => `“${refused.term}” (${refused.policy_reference}): ${refused.problem}`).join('; ')}
          </Alert>
        )}
      </Stack>
    </Paper>
  );
}
