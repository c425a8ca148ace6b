import { useState } from 'react';
import type { PayloadScope } from '../api/list-payloads.ts';
import { RecordingsList } from './recordings-list.tsx';
import type { RecordingsSearch } from './search.ts';

/**
 * Every recording of one device or one device user (`GET devices/{ref}/payloads`, `GET users/{ref}/payloads`), for
 * their detail pages. The filters live in the tab (the page's URL already carries its own).
 */
export function RecordingsTab({ scope, label }: { scope: PayloadScope; label: string }) {
  const [search, setSearch] = useState<RecordingsSearch>({});
  return <RecordingsList kind="all" scope={scope} label={label} search={search} onSearch={setSearch} />;
}
