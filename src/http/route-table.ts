import type { AppDeps } from '../deps.js';
import type { RouteDef } from './route-def.js';
import { versionDetailRoute } from './routes/version/detail.js';
import { loginRoute } from './routes/auth/login.js';
import { refreshRoute } from './routes/auth/refresh.js';
import { logoutRoute } from './routes/auth/logout.js';
import {
  deleteAllSessionsRoute,
  deleteCurrentSessionRoute,
  deleteSessionRoute,
  listSessionsRoute,
} from './routes/auth/sessions.js';
import { settingsDetailRoute } from './routes/admin/system/settings/detail.js';
import { settingsReplaceRoute } from './routes/admin/system/settings/replace.js';
import { settingsPatchRoute } from './routes/admin/system/settings/patch.js';
import { brandRoute } from './routes/front/brand.js';
import { frontGroupsRoute } from './routes/front/groups.js';
import { frontMetricsRoute } from './routes/front/metrics.js';
import { FrontMetricsCache } from './routes/front/metrics-cache.js';
import { accessRoute } from './routes/statistics/access.js';
import {
  trafficSettingsPatchRoute,
  trafficSettingsRoute,
} from './routes/statistics/traffic/settings.js';
import { uptimeDayRoute, uptimeRoute } from './routes/metrics/uptime.js';
import { onlineRoute } from './routes/metrics/online.js';
import { historyRoute } from './routes/metrics/history.js';
import { adminGroupsListRoute } from './routes/admin/groups/list.js';
import { adminGroupsMapRoute } from './routes/admin/groups/map.js';
import { adminGroupsCreateRoute } from './routes/admin/groups/create.js';
import { adminGroupsUpdateRoute } from './routes/admin/groups/update.js';
import { adminGroupsDeleteRoute } from './routes/admin/groups/delete.js';
import { adminNodesListRoute } from './routes/admin/nodes/list.js';
import { adminNodesCreateRoute } from './routes/admin/nodes/create.js';
import { adminNodesDeployRoute } from './routes/admin/nodes/deploy.js';
import { adminNodesDisplayOrderRoute } from './routes/admin/nodes/display-order.js';
import { adminNodesTrafficP95Route } from './routes/admin/nodes/traffic-p95.js';
import { adminNodesUpdateRoute } from './routes/admin/nodes/update.js';
import { adminNodesDeleteRoute } from './routes/admin/nodes/delete.js';
import { adminNodesUpgradeRoute } from './routes/admin/nodes/upgrade.js';
import { nodeIdentityRoute } from './routes/node/identity.js';
import { nodeMetricsRoute } from './routes/node/metrics.js';
import { nodeStaticRoute } from './routes/node/static.js';
import { apiDescriptionRoutes } from './routes/docs/openapi.js';
import { trafficIfacesRoute } from './routes/statistics/traffic/ifaces.js';
import { trafficSummaryRoute } from './routes/statistics/traffic/summary.js';
import { trafficDailyRoute } from './routes/statistics/traffic/daily.js';
import { trafficMonthlyRoute } from './routes/statistics/traffic/monthly.js';
import {
  adminTrafficRebuildRoute,
  adminTrafficRebuildStateRoute,
} from './routes/admin/nodes/traffic-rebuild.js';
import {
  adminTrafficAdjustmentsCreateRoute,
  adminTrafficAdjustmentsListRoute,
  adminTrafficAdjustmentsRevokeRoute,
} from './routes/admin/nodes/traffic-adjustments.js';
import { adminAlertRulesListRoute } from './routes/admin/alerts/rules-list.js';
import { adminAlertRulesCreateRoute } from './routes/admin/alerts/rules-create.js';
import { adminAlertRulesUpdateRoute } from './routes/admin/alerts/rules-update.js';
import { adminAlertRulesDeleteRoute } from './routes/admin/alerts/rules-delete.js';
import { adminAlertMountsGetRoute } from './routes/admin/alerts/mounts-get.js';
import { adminAlertMountsPutRoute } from './routes/admin/alerts/mounts-put.js';
import { adminAlertSettingsGetRoute } from './routes/admin/alerts/settings-get.js';
import { adminAlertSettingsPutRoute } from './routes/admin/alerts/settings-put.js';
import { adminAlertEventsListRoute } from './routes/admin/alerts/events-list.js';
import { adminAlertEventsSummaryRoute } from './routes/admin/alerts/events-summary.js';
import { adminAlertEventsServersRoute } from './routes/admin/alerts/events-servers.js';
import { adminAlertEventsAckRoute } from './routes/admin/alerts/events-ack.js';
import { adminAlertSilencesListRoute } from './routes/admin/alerts/silences-list.js';
import { adminAlertSilencesCreateRoute } from './routes/admin/alerts/silences-create.js';
import { adminAlertSilencesDeleteRoute } from './routes/admin/alerts/silences-delete.js';
import { themesListRoute } from './routes/admin/system/themes/list.js';
import { themesUploadRoute } from './routes/admin/system/themes/upload.js';
import { themesApplyRoute } from './routes/admin/system/themes/apply.js';
import { themesDeleteRoute } from './routes/admin/system/themes/delete.js';
import { dashUpdateStatusRoute } from './routes/admin/system/dash-update/status.js';
import { adminStorageRoute } from './routes/admin/system/storage.js';
import { dashUpdateCheckRoute } from './routes/admin/system/dash-update/check.js';
import { dashUpdateRunRoute } from './routes/admin/system/dash-update/run.js';
import { dashUpdateReleaseNotesRoute } from './routes/admin/system/dash-update/release-notes.js';

import { adminChannelsListRoute } from './routes/admin/channels/list.js';
import { adminChannelsCreateRoute } from './routes/admin/channels/create.js';
import { adminChannelsGetRoute } from './routes/admin/channels/get.js';
import { adminChannelsReplaceRoute } from './routes/admin/channels/replace.js';
import { adminChannelsEnabledRoute } from './routes/admin/channels/enabled.js';
import { adminChannelsTestRoute } from './routes/admin/channels/test.js';
import { adminChannelsDeleteRoute } from './routes/admin/channels/delete.js';
import {
  adminMtprotoCodeRoute,
  adminMtprotoPasswordRoute,
  adminMtprotoPingRoute,
  adminMtprotoVerifyRoute,
} from './routes/admin/channels/mtproto.js';

/**
 * Every /api route. This table drives routing, 405 + Allow, aliases and auth, and the
 * conventions test walks it, so a route exists only once it is listed here.
 */
export interface SharedRouteState {
  /** The snapshot cache, when a fast lane serves the same endpoint from it. */
  frontMetrics?: FrontMetricsCache;
}

export function routeTable(deps: AppDeps, shared: SharedRouteState = {}): RouteDef[] {
  // One cache for the route and its lane, and for every table built for the API description.
  shared.frontMetrics ??= new FrontMetricsCache(deps.front, deps.clock);
  return [
    versionDetailRoute(deps),
    loginRoute(deps),
    refreshRoute(deps),
    logoutRoute(deps),
    listSessionsRoute(deps),
    deleteCurrentSessionRoute(deps),
    deleteAllSessionsRoute(deps),
    deleteSessionRoute(deps),
    settingsDetailRoute(deps),
    settingsReplaceRoute(deps),
    settingsPatchRoute(deps),
    brandRoute(deps),
    frontGroupsRoute(deps),
    frontMetricsRoute(deps, shared.frontMetrics),
    accessRoute(deps),
    trafficSettingsRoute(deps),
    trafficSettingsPatchRoute(deps),
    uptimeRoute(deps),
    uptimeDayRoute(deps),
    onlineRoute(deps),
    historyRoute(deps),
    adminGroupsListRoute(deps),
    adminGroupsMapRoute(deps),
    adminGroupsCreateRoute(deps),
    adminGroupsUpdateRoute(deps),
    adminGroupsDeleteRoute(deps),
    adminNodesListRoute(deps),
    adminNodesCreateRoute(deps),
    adminNodesDeployRoute(deps),
    adminNodesDisplayOrderRoute(deps),
    adminNodesTrafficP95Route(deps),
    adminNodesUpdateRoute(deps),
    adminNodesDeleteRoute(deps),
    adminNodesUpgradeRoute(deps),
    nodeIdentityRoute(deps),
    nodeMetricsRoute(deps),
    nodeStaticRoute(deps),
    ...apiDescriptionRoutes(deps, () => routeTable(deps, shared)),
    trafficIfacesRoute(deps),
    trafficSummaryRoute(deps),
    trafficDailyRoute(deps),
    trafficMonthlyRoute(deps),
    adminTrafficRebuildStateRoute(deps),
    adminTrafficRebuildRoute(deps),
    adminTrafficAdjustmentsListRoute(deps),
    adminTrafficAdjustmentsCreateRoute(deps),
    adminTrafficAdjustmentsRevokeRoute(deps),
    adminAlertRulesListRoute(deps),
    adminAlertRulesCreateRoute(deps),
    adminAlertRulesUpdateRoute(deps),
    adminAlertRulesDeleteRoute(deps),
    adminAlertMountsGetRoute(deps),
    adminAlertMountsPutRoute(deps),
    adminAlertSettingsGetRoute(deps),
    adminAlertSettingsPutRoute(deps),
    adminAlertEventsListRoute(deps),
    adminAlertEventsSummaryRoute(deps),
    adminAlertEventsServersRoute(deps),
    adminAlertEventsAckRoute(deps),
    adminAlertSilencesListRoute(deps),
    adminAlertSilencesCreateRoute(deps),
    adminAlertSilencesDeleteRoute(deps),
    themesListRoute(deps),
    themesUploadRoute(deps),
    themesApplyRoute(deps),
    themesDeleteRoute(deps),
    dashUpdateStatusRoute(deps),
    adminStorageRoute(deps),
    dashUpdateCheckRoute(deps),
    dashUpdateRunRoute(deps),
    dashUpdateReleaseNotesRoute(deps),
    adminChannelsListRoute(deps),
    adminChannelsCreateRoute(deps),
    adminMtprotoCodeRoute(deps),
    adminMtprotoVerifyRoute(deps),
    adminMtprotoPasswordRoute(deps),
    adminMtprotoPingRoute(deps),
    adminChannelsGetRoute(deps),
    adminChannelsReplaceRoute(deps),
    adminChannelsEnabledRoute(deps),
    adminChannelsTestRoute(deps),
    adminChannelsDeleteRoute(deps),
  ];
}
