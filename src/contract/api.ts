import {
  acceptInvitationEndpoint,
  changeUserRoleEndpoint,
  checkInvitationEndpoint,
  inviteAdminUserEndpoint,
  listAdminUsersEndpoint,
  listInvitationsEndpoint,
  listUserSessionsEndpoint,
  removeUserAccessEndpoint,
  resendInvitationEndpoint,
  revokeInvitationEndpoint,
  revokeUserSessionsEndpoint,
} from "./admin-users.ts";
import { analyticsEndpoint, salesEndpoint, topProductsEndpoint, topVendorsEndpoint } from "./analytics.ts";
import { listAuditLogEndpoint } from "./audit-log.ts";
import { betaVerifyEndpoint, meEndpoint, signInEndpoint, signOutEndpoint } from "./auth.ts";
import { dashboardAttentionEndpoint, dashboardStatsEndpoint } from "./dashboard.ts";
import { debugAdminEndpoint, testErrorEndpoint } from "./system-debug.ts";
import { apiReferenceAssetEndpoint, apiReferencePageEndpoint, openApiDocumentEndpoint } from "./api-docs.ts";
import type { EndpointDefinition } from "./endpoint.ts";
import { createExportEndpoint, downloadExportEndpoint } from "./exports.ts";
import {
  cancelPayoutRunEndpoint,
  checkPayoutEndpoint,
  createPayoutRunEndpoint,
  financialOverviewEndpoint,
  getPayoutRunEndpoint,
  getVendorPayoutsEndpoint,
  listBalancesEndpoint,
  listPayoutRunsEndpoint,
  listPayoutsEndpoint,
  refreshPayoutAccountEndpoint,
  retryPayoutEndpoint,
} from "./financials.ts";
import { archiveAllErrorLogsEndpoint, archiveErrorLogEndpoint, archiveSelectedErrorLogsEndpoint, cleanupArchivedErrorLogsEndpoint, listErrorLogsEndpoint } from "./error-logs.ts";
import {
  cancelAnnouncementEndpoint,
  getAnnouncementEndpoint,
  listAnnouncementsEndpoint,
  listRecipientsEndpoint,
  previewAnnouncementEndpoint,
  publicAnnouncementsEndpoint,
  retryFailedEndpoint,
  sendAnnouncementEndpoint,
  takeDownAnnouncementEndpoint,
} from "./communications.ts";
import { endFeaturedArtistEndpoint, getFeaturedArtistEndpoint, publicFeaturedArtistEndpoint, setFeaturedArtistEndpoint } from "./featured-artist.ts";
import { bulkProductStatusEndpoint, getProductEndpoint, listProductsEndpoint, productsSummaryEndpoint, setProductStatusEndpoint } from "./products.ts";
import { healthEndpoint, publicConfigEndpoint, readyEndpoint } from "./public.ts";
import {
  createWebhookEndpointEndpoint,
  deleteWebhookEndpointEndpoint,
  listWebhookDeliveriesEndpoint,
  listWebhookEndpointsEndpoint,
  resendWebhookDeliveryEndpoint,
  rotateWebhookSecretEndpoint,
  testWebhookEndpointEndpoint,
  updateWebhookEndpointEndpoint,
} from "./integrations-webhooks.ts";
import { createApiKeyEndpoint, listApiKeysEndpoint, revokeApiKeyEndpoint } from "./integrations.ts";
import { ingestEventsEndpoint } from "./integrations-events.ts";
import { clerkWebhookEndpoint, listIncomingEventsEndpoint, retryIncomingEventEndpoint, stripeWebhookEndpoint } from "./integrations-inbound.ts";
import { getSettingsEndpoint, settingHistoryEndpoint, updateSettingsEndpoint } from "./settings.ts";
import {
  bulkVendorStatusEndpoint,
  deleteVendorEndpoint,
  getVendorDetailEndpoint,
  listAdminVendorsEndpoint,
  listVendorProductsEndpoint,
  listVendorSalesEndpoint,
  listVendorsArrayEndpoint,
  setVendorStatusEndpoint,
} from "./vendors.ts";

/**
 * Every endpoint of the API by its definition's name. The OpenAPI document is generated from this
 * list (each operation's operationId is the name without "Endpoint"), and a test holds it equal to
 * the routes the app serves, both ways. Server only: the web imports single definitions.
 */
export const apiEndpointsByName = {
  healthEndpoint,
  readyEndpoint,
  publicConfigEndpoint,
  openApiDocumentEndpoint,
  apiReferencePageEndpoint,
  apiReferenceAssetEndpoint,
  signInEndpoint,
  signOutEndpoint,
  meEndpoint,
  betaVerifyEndpoint,
  listAdminVendorsEndpoint,
  listVendorsArrayEndpoint,
  getVendorDetailEndpoint,
  listVendorProductsEndpoint,
  listVendorSalesEndpoint,
  setVendorStatusEndpoint,
  bulkVendorStatusEndpoint,
  deleteVendorEndpoint,
  dashboardStatsEndpoint,
  dashboardAttentionEndpoint,
  analyticsEndpoint,
  topProductsEndpoint,
  topVendorsEndpoint,
  salesEndpoint,
  listErrorLogsEndpoint,
  archiveAllErrorLogsEndpoint,
  archiveSelectedErrorLogsEndpoint,
  archiveErrorLogEndpoint,
  cleanupArchivedErrorLogsEndpoint,
  getSettingsEndpoint,
  updateSettingsEndpoint,
  settingHistoryEndpoint,
  debugAdminEndpoint,
  testErrorEndpoint,
  createExportEndpoint,
  downloadExportEndpoint,
  financialOverviewEndpoint,
  listPayoutsEndpoint,
  listBalancesEndpoint,
  createPayoutRunEndpoint,
  listPayoutRunsEndpoint,
  getPayoutRunEndpoint,
  cancelPayoutRunEndpoint,
  retryPayoutEndpoint,
  checkPayoutEndpoint,
  getVendorPayoutsEndpoint,
  refreshPayoutAccountEndpoint,
  listAdminUsersEndpoint,
  inviteAdminUserEndpoint,
  listInvitationsEndpoint,
  revokeInvitationEndpoint,
  resendInvitationEndpoint,
  changeUserRoleEndpoint,
  removeUserAccessEndpoint,
  listUserSessionsEndpoint,
  revokeUserSessionsEndpoint,
  checkInvitationEndpoint,
  acceptInvitationEndpoint,
  listAuditLogEndpoint,
  sendAnnouncementEndpoint,
  previewAnnouncementEndpoint,
  listAnnouncementsEndpoint,
  getAnnouncementEndpoint,
  listRecipientsEndpoint,
  retryFailedEndpoint,
  cancelAnnouncementEndpoint,
  takeDownAnnouncementEndpoint,
  publicAnnouncementsEndpoint,
  getFeaturedArtistEndpoint,
  setFeaturedArtistEndpoint,
  endFeaturedArtistEndpoint,
  publicFeaturedArtistEndpoint,
  listProductsEndpoint,
  productsSummaryEndpoint,
  getProductEndpoint,
  setProductStatusEndpoint,
  bulkProductStatusEndpoint,
  createApiKeyEndpoint,
  listApiKeysEndpoint,
  revokeApiKeyEndpoint,
  createWebhookEndpointEndpoint,
  listWebhookEndpointsEndpoint,
  updateWebhookEndpointEndpoint,
  deleteWebhookEndpointEndpoint,
  rotateWebhookSecretEndpoint,
  testWebhookEndpointEndpoint,
  listWebhookDeliveriesEndpoint,
  resendWebhookDeliveryEndpoint,
  ingestEventsEndpoint,
  stripeWebhookEndpoint,
  clerkWebhookEndpoint,
  listIncomingEventsEndpoint,
  retryIncomingEventEndpoint,
} as const satisfies Record<string, EndpointDefinition>;

export const apiEndpoints: readonly EndpointDefinition[] = Object.values(apiEndpointsByName);
