import { Stack, TagsInput, Text, type ComboboxItem, type ComboboxParsedItem } from '@mantine/core';
import { useMemo } from 'react';
import type { CatalogueEntry } from './role-model.ts';

/** `devices:*` for every area of the catalogue, plus `*`: the wildcards a rule most often wants. */
function areaWildcards(catalogue: readonly CatalogueEntry[]): CatalogueEntry[] {
  const areas = [...new Set(catalogue.map((entry) => entry.action.split(':')[0] ?? ''))].filter((area) => area !== '');
  return [
    { action: '*', description: 'Every action (wildcard).' },
    ...areas.map((area) => ({ action: `${area}:*`, description: `Every ${area} action (wildcard).` })),
  ];
}

const isItem = (option: ComboboxParsedItem): option is ComboboxItem => 'value' in option;

/**
 * Searchable multi-select of the action catalogue: each option shows its description, and the search matches the
 * description too ("offboard" finds deviceUsers:Update). Typing a pattern and pressing Enter adds it as it is
 * (wildcards `*` and `?`, or a regex when the rule is a regex rule).
 */
export function ActionPicker({ catalogue, value, onChange, label, error }: {
  catalogue: readonly CatalogueEntry[];
  value: string[];
  onChange: (value: string[]) => void;
  label: string;
  error?: string | undefined;
}) {
  const descriptions = useMemo(() => {
    const map = new Map<string, string>();
    for (const entry of [...areaWildcards(catalogue), ...catalogue]) map.set(entry.action, entry.description);
    return map;
  }, [catalogue]);
  const data = useMemo(() => [...descriptions.keys()], [descriptions]);

  return (
    <TagsInput
      label={label}
      description="Search by name or description; type a wildcard such as devices:* and press Enter to add it"
      data={data}
      value={value}
      onChange={onChange}
      error={error}
      clearable
      acceptValueOnBlur={false}
      splitChars={[',', ' ']}
      maxDropdownHeight={320}
      limit={60}
      filter={({ options, search, limit }) => {
        const needle = search.trim().toLowerCase();
        const items = options.filter(isItem);
        const found = needle === '' ? items : items.filter((item) => `${item.value} ${descriptions.get(item.value) ?? ''}`.toLowerCase().includes(needle));
        return found.slice(0, limit);
      }}
      renderOption={({ option }) => (
        <Stack gap={0}>
          <Text size="sm" fw={600}>
            {option.value}
          </Text>
          <Text size="xs">{descriptions.get(option.value) ?? ''}</Text>
        </Stack>
      )}
    />
  );
}
