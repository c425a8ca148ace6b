import { formatDate } from '../../lib/format.ts';
import type { CasePerson } from '#shared/contract/entities/cases.ts';

/** A portal user as the case screens name them: their name, else their e-mail, else their reference. */
export function personName(person: CasePerson | undefined, reference: string): string {
  if (person === undefined) return reference;
  const name = [person.first_name, person.surname].filter(Boolean).join(' ');
  if (name !== '' && person.email !== undefined) return `${name} (${person.email})`;
  return name !== '' ? name : (person.email ?? reference);
}

/** Picker options for portal users: the reference as the value, the name as the label. */
export function personOptions(people: readonly CasePerson[]): { value: string; label: string }[] {
  return people.map((person) => ({ value: person.user_reference, label: personName(person, person.user_reference) }));
}

/** A picked day as the case period's start or end (the API's ISO time, UTC, both days included). */
export function periodBound(day: string, end: 'from' | 'to'): string {
  return `${day}T${end === 'from' ? '00:00:00' : '23:59:59'}Z`;
}

/**
 * A case's period as the UTC days it covers ("1 Mar 2026 – 31 May 2026"). Each end is shown as its UTC day (read at
 * noon), so a browser in another time zone does not show the last day's end as the next day.
 */
export function periodWords(period: { from: string; to: string }): string {
  const day = (iso: string) => formatDate(`${iso.slice(0, 10)}T12:00:00Z`);
  return `${day(period.from)} – ${day(period.to)}`;
}
