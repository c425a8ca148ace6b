import { endpointOf } from '#shared/contract/endpoint-of.ts';
import { supervisionEndpoints } from '#shared/contract/endpoints/supervision.ts';
import { implementForTenant } from '#core/http/route.ts';
import { readReport } from '../reports/reports.ts';
import { listItems } from './list-items.ts';
import { readItemDetail, reviewItem, reviewItems } from './review-items.ts';

const list = endpointOf(supervisionEndpoints, 'admin.supervision.items.list');
const get = endpointOf(supervisionEndpoints, 'admin.supervision.items.get');
const update = endpointOf(supervisionEndpoints, 'admin.supervision.items.update');
const bulk = endpointOf(supervisionEndpoints, 'admin.supervision.items.bulk');
const report = endpointOf(supervisionEndpoints, 'admin.supervision.reports.get');

/** The review queue's and the reports' routes of the `supervision` group (spread into its handler's routes). */
export const itemRoutes = {
  [list.id]: implementForTenant(list, ({ caller, query }) => listItems(caller, query)),
  [get.id]: implementForTenant(get, ({ caller, params }) => readItemDetail(caller, params.item_reference)),
  [update.id]: implementForTenant(update, ({ caller, params, body }) => reviewItem(caller, params.item_reference, body)),
  [bulk.id]: implementForTenant(bulk, ({ caller, body }) => reviewItems(caller, body)),
  [report.id]: implementForTenant(report, ({ caller, params, query }) => readReport(caller, params.report, query)),
};
