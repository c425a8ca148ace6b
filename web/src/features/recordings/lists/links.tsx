import { Anchor } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import type { PayloadType } from '#shared/constants/payloads.ts';
import { kindOfType, type RecordingKind } from '../shared/kinds.ts';
import type { RecordingsSearch } from './search.ts';

/**
 * A recording's detail page under its service (`/dashboard/services/<kind>/{payload_reference}`). Diagnostics have
 * no detail page (spec point 2), so they show as text.
 */
export function RecordingLink({ type, reference, title, children }: { type: PayloadType; reference: string; title?: string; children: ReactNode }) {
  const params = { payloadReference: reference };
  switch (kindOfType(type)) {
    case 'calls':
      return <Anchor title={title} renderRoot={(props) => <Link {...props} to="/dashboard/services/calls/$payloadReference" params={params} />}>{children}</Anchor>;
    case 'messages':
      return <Anchor title={title} renderRoot={(props) => <Link {...props} to="/dashboard/services/messages/$payloadReference" params={params} />}>{children}</Anchor>;
    case 'interviews':
      return <Anchor title={title} renderRoot={(props) => <Link {...props} to="/dashboard/services/interviews/$payloadReference" params={params} />}>{children}</Anchor>;
    case 'photos':
      return <Anchor title={title} renderRoot={(props) => <Link {...props} to="/dashboard/services/photos/$payloadReference" params={params} />}>{children}</Anchor>;
    case 'videos':
      return <Anchor title={title} renderRoot={(props) => <Link {...props} to="/dashboard/services/videos/$payloadReference" params={params} />}>{children}</Anchor>;
    default:
      return <>{children}</>;
  }
}

/**
 * A recording's device by what it is (model and number, `deviceLabel`), never by its reference; "Unnamed device" when
 * the record holds neither.
 */
export function DeviceLink({ reference, label }: { reference: string; label: string | undefined }) {
  return (
    <Anchor renderRoot={(props) => <Link {...props} to="/dashboard/devices/$deviceReference" params={{ deviceReference: reference }} />}>
      {label ?? 'Unnamed device'}
    </Anchor>
  );
}

/** A device user by name; "Unnamed user" when the record holds none (retention removed a destroyed user's name). */
export function DeviceUserLink({ reference, name }: { reference: string; name: string | undefined }) {
  return (
    <Anchor
      renderRoot={(props) => <Link {...props} to="/dashboard/devices/users/$deviceUserReference" params={{ deviceUserReference: reference }} />}
    >
      {name ?? 'Unnamed user'}
    </Anchor>
  );
}

/** A recordings screen with the given filters (the overview's counts open the list they count). */
export function ServiceLink({
  kind,
  search,
  children,
  'aria-label': ariaLabel,
}: {
  kind: Exclude<RecordingKind, 'all'>;
  search: RecordingsSearch;
  children: ReactNode;
  'aria-label'?: string;
}) {
  const common = { search, 'aria-label': ariaLabel };
  switch (kind) {
    case 'calls':
      return <Anchor renderRoot={(props) => <Link {...props} {...common} to="/dashboard/services/calls" />}>{children}</Anchor>;
    case 'messages':
      return <Anchor renderRoot={(props) => <Link {...props} {...common} to="/dashboard/services/messages" />}>{children}</Anchor>;
    case 'interviews':
      return <Anchor renderRoot={(props) => <Link {...props} {...common} to="/dashboard/services/interviews" />}>{children}</Anchor>;
    case 'photos':
      return <Anchor renderRoot={(props) => <Link {...props} {...common} to="/dashboard/services/photos" />}>{children}</Anchor>;
    case 'videos':
      return <Anchor renderRoot={(props) => <Link {...props} {...common} to="/dashboard/services/videos" />}>{children}</Anchor>;
    default:
      return <Anchor renderRoot={(props) => <Link {...props} {...common} to="/dashboard/services/diagnostics" />}>{children}</Anchor>;
  }
}
