/**
 * The device user page's tabs. Kept apart from the component: the route's search schema reads it, and route options
 * are in the first bundle, so importing the component there would pull the whole screen into every page.
 */
export const ACTIVITY_TABS = ['devices', 'recordings', 'logs', 'gps'] as const;
export type ActivityTab = (typeof ACTIVITY_TABS)[number];
