/**
 * Every action in words, for people: what a refusal says was refused ("Your roles do not allow downloading
 * recordings") and what the audit screen says someone did ("Dana Admin (admin@demo.test) downloaded a recording").
 * Keyed by the action names of `./actions.ts`, so one entry covers every endpoint naming the action; the unit test
 * keeps it complete. Kept apart from the registry so the portal can read it without bundling every endpoint schema.
 *
 * - `kind`: `read` when the action only reads, `change` when it changes something (or takes a copy, or sends
 *   something away): the audit screen's "kind" filter, and which records it folds (only reads).
 * - `doing`: the act as a gerund phrase, after "Your roles do not allow …".
 * - `did`: the act in the past tense, after the person's name; the record's path parameters follow it (`subjectOf`).
 */
export const ACTION_KINDS = ['read', 'change'] as const;
export type ActionKind = (typeof ACTION_KINDS)[number];

export interface ActionWording {
  kind: ActionKind;
  doing: string;
  did: string;
}

const read = (doing: string, did: string): ActionWording => ({ kind: 'read', doing, did });
const change = (doing: string, did: string): ActionWording => ({ kind: 'change', doing, did });

export const ACTION_WORDING: Readonly<Record<string, ActionWording>> = Object.freeze({
  'account:ReadDefaults': read('reading the account defaults', 'viewed the account defaults'),
  'account:ReadMetadata': read('reading the account details', 'read the account details'),
  'account:UpdateDefaults': change('changing the account defaults', 'changed the account defaults'),
  'activities:Export': change('exporting the audit trail', 'exported the audit trail'),
  'activities:List': read('reading the audit trail', 'viewed the audit trail'),
  'alerts:Clear': change('clearing alerts', 'cleared alerts'),
  'alerts:Dismiss': change('dismissing alerts', 'dismissed alerts'),
  'alerts:List': read('listing alerts', 'viewed the alerts list'),
  'alerts:Read': read('reading alerts', 'viewed an alert'),
  'alerts:Summary': read('reading alert counts', 'viewed the alert counts'),
  'approvals:Approve': change('approving pending changes', 'approved the pending change'),
  'approvals:List': read('listing pending changes', 'viewed the pending changes'),
  'approvals:Read': read('reading pending changes', 'viewed the pending change'),
  'approvals:Reject': change('rejecting pending changes', 'rejected the pending change'),
  'apps:Create': change('registering client apps', 'registered a client app'),
  'apps:Delete': change('removing client apps', 'removed a client app'),
  'apps:List': read('listing client apps', 'viewed the client apps list'),
  'apps:Read': read('reading client apps', 'viewed a client app'),
  'apps:Update': change('changing client apps', 'changed a client app'),
  'cases:Close': change('closing cases', 'closed a case'),
  'cases:Create': change('opening cases', 'opened a case'),
  'cases:List': read('listing cases', 'viewed the cases list'),
  'cases:Read': read('reading cases', 'viewed a case'),
  'cases:Update': change('changing cases', 'changed a case'),
  'commands:List': read('listing device commands', 'viewed the device commands list'),
  'commands:Send': change('sending commands to devices', 'sent a command to'),
  'comments:Create': change('commenting on recordings', 'commented on'),
  'comments:Delete': change('deleting comments', 'deleted a comment on'),
  'comments:List': read('reading comments', 'read the comments on'),
  'comments:Update': change('editing comments', 'edited a comment on'),
  'completeness:List': read('reading capture completeness', 'viewed capture completeness'),
  'completeness:ListEntries': read('reading completeness entries', 'viewed the entries behind a completeness count'),
  'dashboard:Read': read('reading the dashboard', 'viewed the dashboard'),
  'device:Authenticate': change('signing in a device', 'signed in a device'),
  'device:GetKeys': read('fetching the account key', 'fetched the account key'),
  'device:PollCommands': read('fetching device commands', 'fetched its commands'),
  'device:RaiseAlert': change('raising alerts from a device', 'raised an alert'),
  'device:ReadPayloadState': read("reading an upload's state", "read an upload's state"),
  'device:ReportCommand': change('reporting command results', 'reported a command result'),
  'device:UploadGps': change('uploading locations', 'uploaded locations'),
  'device:UploadLedger': change('uploading call and message ledgers', 'uploaded its ledger'),
  'device:UploadLogs': change('uploading device logs', 'uploaded device logs'),
  'device:UploadPayload': change('uploading recordings', 'uploaded a recording'),
  'device:UploadTelemetry': change('uploading telemetry', 'uploaded telemetry'),
  'deviceActivities:List': read('reading the device audit trail', 'viewed the device audit trail'),
  'deviceLogs:List': read('reading device logs', 'viewed device logs'),
  'deviceUsers:Create': change('onboarding device users', 'onboarded'),
  'deviceUsers:Delete': change('removing device users', 'removed'),
  'deviceUsers:List': read('listing device users', 'viewed the device users list'),
  'deviceUsers:Read': read('reading device users', 'viewed'),
  'deviceUsers:Update': change('changing device users', 'changed'),
  'devices:Deactivate': change('deactivating devices', 'deactivated'),
  'devices:List': read('listing devices', 'viewed the devices list'),
  'devices:Read': read('reading devices', 'viewed'),
  'devices:ReadHistory': read("reading a device's history", 'viewed the history of'),
  'disposals:List': read('reading the disposal records', 'viewed the disposal records'),
  'erasureRequests:Create': change('recording erasure requests', 'recorded an erasure request'),
  'erasureRequests:Get': read('reading erasure requests', 'viewed an erasure request'),
  'erasureRequests:List': read('listing erasure requests', 'viewed the erasure requests'),
  'erasureRequests:Review': change('reviewing erasure requests', 'reviewed an erasure request'),
  'gps:List': read('reading locations', 'viewed locations'),
  'groups:Delete': change('deleting groups', 'deleted'),
  'groups:List': read('listing groups', 'viewed the groups list'),
  'groups:Read': read('reading groups', 'viewed'),
  'groups:Update': change('changing groups', 'created or changed'),
  'identity:Exchange': change('signing in', 'signed in'),
  'identity:GetSignInUrl': read('opening the sign-in page', 'opened the sign-in page'),
  'internal:CancelSupportAccess': change('cancelling support access', 'cancelled support access'),
  'internal:ClearAlerts': change("clearing an account's alerts", 'cleared alerts of'),
  'internal:DismissAlerts': change("dismissing an account's alerts", 'dismissed alerts of'),
  'internal:Exchange': change('signing in as staff', 'signed in as staff'),
  'internal:ListAlerts': read("listing the provider's alerts", "viewed the provider's alerts"),
  'internal:ListClientRoles': read("listing an account's roles", 'viewed the roles of'),
  'internal:ListClients': read('listing accounts', 'viewed the accounts list'),
  'internal:ListCountries': read('listing countries and carriers', 'viewed the countries and carriers'),
  'internal:ListLicenses': read('listing licences', 'viewed the licences of every account'),
  'internal:ListStaff': read('listing staff', 'viewed the staff list'),
  'internal:ListSupportAccess': read('listing support access requests', 'viewed support access requests'),
  'internal:Notify': change('sending notifications', 'sent a notification'),
  'internal:ReadAlert': read("reading an account's alert", 'viewed an alert of'),
  'internal:ReadStatistics': read('reading account statistics', 'viewed account statistics'),
  'internal:ReadSupportAccess': read('reading support access requests', 'viewed a support access request'),
  'internal:ReadTelemetry': read('reading device telemetry', 'viewed device telemetry'),
  'internal:RequestSupportAccess': change('asking for support access', 'asked for support access to'),
  'internal:UpdateLicenses': change('setting licence limits', 'set the licence limits of'),
  'internal:Verify': read('verifying sign-in tokens', 'verified a sign-in token'),
  'legalHolds:List': read('listing legal holds', 'viewed the legal holds'),
  'legalHolds:Release': change('releasing legal holds', 'released the legal hold on'),
  'legalHolds:Update': change('placing legal holds', 'placed a legal hold on'),
  'licenses:Read': read('reading licences', 'viewed the licences'),
  'metrics:Read': read('reading recording metrics', 'viewed the recording metrics'),
  'migration:Read': read('reading the migration settings', 'viewed the migration settings'),
  'migration:Update': change('changing the migration settings', 'changed the migration settings'),
  'migrations:List': read('listing migration imports', 'viewed the migration imports'),
  'migrations:Read': read('reading migration imports', 'viewed a migration import'),
  'migrations:Import': change('importing legacy exports', 'imported a legacy export'),
  'payloads:ConfirmReceipt': change('confirming receipt of recordings', 'confirmed receipt of recordings'),
  'payloads:Download': change('downloading recordings', 'downloaded'),
  'payloads:List': read('listing recordings', 'viewed the recordings list'),
  'payloads:Play': read('playing or viewing recordings', 'played or viewed'),
  'payloads:Read': read('reading recordings', 'opened'),
  'productions:Create': change('producing records', 'started a production'),
  'productions:Download': change('downloading productions', 'downloaded a production'),
  'productions:List': read('reading the production log', 'viewed the production log'),
  'payloads:ReadAudit': read("reading a recording's audit", 'viewed the audit of'),
  'payloads:Restore': change('restoring deleted recordings', 'restored'),
  'profile:AcceptTerms': change('accepting the terms of use', 'accepted the terms of use'),
  'profile:Read': read('reading your profile', 'read their profile'),
  'retention:Read': read('reading the retention policy', 'viewed the retention policy'),
  'retention:Preview': read('previewing retention changes', 'previewed a retention change'),
  'retention:Update': change('changing the retention policy', 'changed the retention policy'),
  'roles:Delete': change('deleting roles', 'deleted'),
  'roles:List': read('listing roles', 'viewed the roles list'),
  'roles:Read': read('reading roles', 'viewed'),
  'roles:Update': change('changing roles', 'created or changed'),
  'supervision:ApplyPolicy': change('applying supervision policies to past recordings', 'applied a supervision policy to past recordings'),
  'supervision:DeletePolicy': change('deleting supervision policies', 'deleted a supervision policy'),
  'supervision:ListItems': read('reading the supervision queue', 'viewed the supervision queue'),
  'supervision:ListPolicies': read('reading supervision policies', 'viewed the supervision policies'),
  'supervision:PreviewPolicy': read('previewing supervision policies', 'previewed a supervision policy'),
  'supervision:ReadItem': read('reading supervision items', 'viewed a supervision item'),
  'supervision:ReadPolicy': read('reading supervision policies', 'viewed a supervision policy'),
  'supervision:ReadReports': read('reading supervision reports', 'viewed a supervision report'),
  'supervision:ReviewItem': change('reviewing supervision items', 'reviewed a supervision item'),
  'supervision:UpdatePolicy': change('changing supervision policies', 'changed a supervision policy'),
  'supportAccess:Decide': change('deciding on support access', 'decided on'),
  'supportAccess:List': read('listing support access requests', 'viewed the support access requests'),
  'supportAccess:Read': read('reading support access requests', 'viewed'),
  'tags:Delete': change('deleting tags', 'deleted'),
  'tags:List': read('listing tags', 'viewed the tags list'),
  'tags:Read': read('reading tags', 'viewed'),
  'tags:Update': change('changing tags', 'created or changed'),
  'telemetry:List': read('listing device telemetry', 'viewed device telemetry'),
  'telemetry:Read': read("reading a device's telemetry", 'viewed the telemetry of'),
  'transferConfigs:Create': change('creating transfer configurations', 'created'),
  'transferConfigs:Delete': change('deleting transfer configurations', 'deleted'),
  'transferConfigs:List': read('listing transfer configurations', 'viewed the transfer configurations'),
  'transferConfigs:Read': read('reading transfer configurations', 'viewed'),
  'transferConfigs:Update': change('changing transfer configurations', 'changed'),
  'transfers:List': read('listing transfers', 'viewed the transfers list'),
  'transfers:Read': read('reading transfers', 'viewed'),
  'transfers:Run': change('running transfers', 'ran'),
});

/**
 * What Verity itself did, in words (../contract/actions.ts `SYSTEM_ACTION_DESCRIPTIONS`: no role performs these), after
 * the job's or device's name on the audit screen. Apart from `ACTION_WORDING`, which lists what roles may do.
 */
export const SYSTEM_ACTION_WORDING: Readonly<Record<string, ActionWording>> = Object.freeze({
  'approvals:Expire': change('expiring pending changes', 'expired the pending change'),
  'devices:Reassign': change('moving or reactivating devices', 'signed in under a new holder or group, or again after its deactivation'),
  'migrations:ImportRow': change('importing legacy rows', 'imported a legacy row for'),
  'productions:Produce': change('producing records', 'ended a production'),
  'supervision:RecordHits': change('recording new hits on review items', 'recorded new hits on a supervision item'),
});

/** How an action is said: its wording, or (an action this table lacks, e.g. one a newer API added) its own name. */
export function wordingOf(action: string): ActionWording {
  return ACTION_WORDING[action] ?? SYSTEM_ACTION_WORDING[action] ?? { kind: action.endsWith(':List') || action.endsWith(':Read') ? 'read' : 'change', doing: action, did: `called ${action}` };
}

/**
 * An action as a refusal names it: in words with its code after them, "downloading recordings (payloads:Download)",
 * so a person reads the act and a program still finds the action; an action without wording by its code alone.
 */
export function actionInWords(action: string): string {
  const wording = ACTION_WORDING[action] ?? SYSTEM_ACTION_WORDING[action];
  return wording === undefined ? action : `${wording.doing} (${action})`;
}

/** The actions of one kind, sorted (the audit trail's `kind` filter keeps records whose action is one of them). */
export function actionsOfKind(kind: ActionKind): string[] {
  return [...Object.keys(ACTION_WORDING), ...Object.keys(SYSTEM_ACTION_WORDING)]
    .filter((action) => wordingOf(action).kind === kind)
    .sort();
}

/**
 * What a path parameter names, in words, before its value ("device phone-1", "recording 01J…"), in the order the
 * audit sentence says them. A parameter not listed is said as `name value`.
 */
export const PARAMETER_NOUNS: Readonly<Record<string, string>> = Object.freeze({
  payload_reference: 'recording',
  comment_id: 'comment',
  device_reference: 'device',
  device_user_reference: 'device user',
  thread_id: 'message thread',
  group_reference: 'group',
  role_reference: 'role',
  tag_key: 'tag',
  app_reference: 'client app',
  transfer_config_reference: 'transfer configuration',
  transfer_id: 'transfer',
  migration_reference: 'migration import',
  alert_reference: 'alert',
  request_reference: 'support request',
  client: 'account',
});
