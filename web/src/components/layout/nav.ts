/** The portal's navigation, one list per layout. Paths are the routes of spec point 2. */
export interface NavItem {
  label: string;
  to: string;
  /** The action the screen's main read needs; the item is hidden from a user whose roles lack it. */
  action?: string;
}

export interface NavSection {
  label: string;
  items: readonly NavItem[];
}

export const DASHBOARD_NAV: readonly NavSection[] = [
  { label: 'Overview', items: [{ label: 'Dashboard', to: '/dashboard', action: 'dashboard:Read' }] },
  {
    label: 'Devices',
    items: [
      { label: 'Devices', to: '/dashboard/devices', action: 'devices:List' },
      { label: 'Device users', to: '/dashboard/devices/users', action: 'deviceUsers:List' },
      { label: 'Logs', to: '/dashboard/devices/logs', action: 'deviceLogs:List' },
      { label: 'Metrics', to: '/dashboard/devices/metrics', action: 'metrics:Read' },
    ],
  },
  {
    label: 'Services',
    items: [
      { label: 'Services', to: '/dashboard/services' },
      { label: 'Calls', to: '/dashboard/services/calls' },
      { label: 'Messages', to: '/dashboard/services/messages' },
      { label: 'Interviews', to: '/dashboard/services/interviews' },
      { label: 'Photos', to: '/dashboard/services/photos' },
      { label: 'Videos', to: '/dashboard/services/videos' },
      { label: 'Diagnostics', to: '/dashboard/services/diagnostics' },
      { label: 'Comments', to: '/dashboard/services/comments' },
      { label: 'Completeness', to: '/dashboard/services/completeness', action: 'completeness:List' },
    ],
  },
  {
    label: 'Supervision',
    items: [
      { label: 'Queue', to: '/dashboard/supervision', action: 'supervision:ListItems' },
      { label: 'Policies', to: '/dashboard/supervision/policies', action: 'supervision:ListPolicies' },
      { label: 'Reports', to: '/dashboard/supervision/reports', action: 'supervision:ReadReports' },
    ],
  },
  {
    label: 'Cases',
    items: [
      { label: 'Cases', to: '/dashboard/cases', action: 'cases:List' },
      { label: 'Productions', to: '/dashboard/productions', action: 'productions:List' },
    ],
  },
  {
    label: 'Access',
    items: [
      { label: 'Groups', to: '/dashboard/access/groups', action: 'groups:List' },
      { label: 'Roles', to: '/dashboard/access/roles', action: 'roles:List' },
      { label: 'Tags', to: '/dashboard/access/tags', action: 'tags:List' },
    ],
  },
  {
    label: 'Account',
    items: [
      { label: 'Alerts', to: '/dashboard/account/alerts' },
      { label: 'Approvals', to: '/dashboard/account/approvals', action: 'approvals:List' },
      { label: 'Apps', to: '/dashboard/account/apps' },
      { label: 'Audit', to: '/dashboard/account/audit' },
      { label: 'Erasure requests', to: '/dashboard/account/erasure-requests', action: 'erasureRequests:List' },
      { label: 'Legal holds', to: '/dashboard/account/legal-holds', action: 'legalHolds:List' },
      { label: 'Licences', to: '/dashboard/account/licenses' },
      { label: 'Migrations', to: '/dashboard/account/migrations' },
      { label: 'Retention', to: '/dashboard/account/retention', action: 'retention:Read' },
      { label: 'Support access', to: '/dashboard/account/support-access' },
      { label: 'Transfers', to: '/dashboard/account/transfers' },
    ],
  },
];

export const INTERNAL_NAV: readonly NavSection[] = [
  {
    label: 'Staff area',
    items: [
      { label: 'Overview', to: '/internal' },
      { label: 'Alerts', to: '/internal/alerts' },
      { label: 'Carriers', to: '/internal/carriers' },
      { label: 'Licences', to: '/internal/licenses' },
      { label: 'Statistics', to: '/internal/statistics' },
      { label: 'Support', to: '/internal/support' },
    ],
  },
];
