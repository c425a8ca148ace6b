import { Select } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useState } from 'react';
import { DebouncedTextFilter } from '../../../components/filters/filter-inputs.tsx';
import { useEndpointQuery } from '../../../lib/api-hooks.ts';
import { useCan } from '../../../lib/use-can.ts';
import { getDeviceUser } from '../api/get-device-user.ts';
import { listDeviceUsers } from '../api/list-device-users.ts';

/** Fewer letters than this list everyone (a tenant's first 20), so a name search starts at two. */
const SEARCH_FROM = 2;

interface Person {
  device_user_reference: string;
  first_name?: string | undefined;
  surname?: string | undefined;
  email?: string | undefined;
}

/** A person as the picker lists them: their name, else their e-mail, else their reference. */
export function personLabel(person: Person): string {
  const name = [person.first_name, person.surname].filter((part) => part !== undefined && part.trim() !== '').join(' ');
  return name !== '' ? name : (person.email ?? person.device_user_reference);
}

/**
 * The recordings' person filter: people are found by name ("Bram Baker"), e-mail or reference through the device
 * users list and its `search`, and the list is filtered by the one picked (its reference). Typing a name that matches
 * nobody says so in the picker and leaves the list as it was, never an empty list that looks like "no recordings".
 * A role that may not list device users filters by reference, as before.
 */
export function PersonFilter({ value, onApply }: { value: string | undefined; onApply: (reference: string | undefined) => void }) {
  const canList = useCan('deviceUsers:List');
  const canRead = useCan('deviceUsers:Read');
  const [typed, setTyped] = useState('');
  const [search] = useDebouncedValue(typed.trim(), 250);
  const found = useEndpointQuery(
    listDeviceUsers,
    { query: { limit: '20', ...(search.length >= SEARCH_FROM ? { search } : {}) } },
    { enabled: canList.allowed, staleTime: 30_000 },
  );
  const chosen = useEndpointQuery(getDeviceUser, { params: { device_user_reference: value ?? '' } }, { enabled: canRead.allowed && value !== undefined, staleTime: 60_000 });

  if (!canList.allowed) {
    return <DebouncedTextFilter label="Device user reference" value={value} maxLength={60} onApply={onApply} />;
  }

  const people = found.data !== undefined && 'data' in found.data ? found.data.data : [];
  const options = people.map((person) => ({ value: person.device_user_reference, label: personLabel(person) }));
  // The chosen person stays among the options while the search moves on, so the field keeps showing their name.
  if (value !== undefined && !options.some((option) => option.value === value)) {
    options.unshift({ value, label: chosen.data === undefined ? value : personLabel(chosen.data) });
  }
  // Two people of one name are told apart by e-mail.
  const names = options.map((option) => option.label);
  const labelled = options.map((option) => {
    const person = people.find((entry) => entry.device_user_reference === option.value);
    const twin = names.filter((name) => name === option.label).length > 1;
    return twin && person?.email !== undefined ? { ...option, label: `${option.label} (${person.email})` } : option;
  });

  return (
    <Select
      label="Device user"
      placeholder="Anyone: type a name"
      searchable
      clearable
      data={labelled}
      value={value ?? null}
      onChange={(next) => onApply(next ?? undefined)}
      searchValue={typed}
      onSearchChange={setTyped}
      // The server searched already (names, e-mail, reference); filtering again here would hide its answers.
      filter={({ options: all }) => all}
      nothingFoundMessage={found.isFetching ? 'Searching…' : `No device user is called "${typed.trim()}"`}
    />
  );
}
