import { createApiKeyEndpoint, listApiKeysEndpoint, revokeApiKeyEndpoint } from "../../../contract/integrations.ts";
import { ingestEventsEndpoint } from "../../../contract/integrations-events.ts";
import { clerkWebhookEndpoint, listIncomingEventsEndpoint, retryIncomingEventEndpoint, stripeWebhookEndpoint } from "../../../contract/integrations-inbound.ts";
import type { AppDeps } from "../../platform/request/app-env.ts";
import type { EndpointRouter } from "../../platform/request/endpoint-router.ts";
import { IntegrationsService } from "./integrations.service.ts";
import { IncomingEventsService } from "./incoming-events.service.ts";
import { StorefrontEventsService } from "./storefront-events.service.ts";
import { WebhookEndpointsService } from "./webhook-endpoints.service.ts";
import {
  createWebhookEndpointEndpoint,
  deleteWebhookEndpointEndpoint,
  listWebhookDeliveriesEndpoint,
  listWebhookEndpointsEndpoint,
  resendWebhookDeliveryEndpoint,
  rotateWebhookSecretEndpoint,
  testWebhookEndpointEndpoint,
  updateWebhookEndpointEndpoint,
} from "../../../contract/integrations-webhooks.ts";

export function integrationsRoutes(router: EndpointRouter, deps: AppDeps): void {
  const integrations = new IntegrationsService(deps);
  const events = new StorefrontEventsService(deps);
  const webhooks = new WebhookEndpointsService(deps);
  router.handle(createWebhookEndpointEndpoint, ({ body }, { actor }) => webhooks.create(actor, body));
  router.handle(listWebhookEndpointsEndpoint, () => webhooks.list());
  router.handle(updateWebhookEndpointEndpoint, ({ params, body }, { actor }) => webhooks.update(actor, params.id, body));
  router.handle(deleteWebhookEndpointEndpoint, ({ params }, { actor }) => webhooks.delete(actor, params.id));
  router.handle(rotateWebhookSecretEndpoint, ({ params }, { actor }) => webhooks.rotateSecret(actor, params.id));
  router.handle(testWebhookEndpointEndpoint, ({ params }, { actor }) => webhooks.test(actor, params.id));
  router.handle(listWebhookDeliveriesEndpoint, ({ params, query }) => webhooks.deliveries(params.id, query));
  router.handle(resendWebhookDeliveryEndpoint, ({ params }, { actor }) => webhooks.resend(actor, params.id, params.deliveryId));
  router.handle(createApiKeyEndpoint, ({ body }, { actor }) => integrations.createApiKey(actor, body));
  router.handle(listApiKeysEndpoint, () => integrations.listApiKeys());
  router.handle(revokeApiKeyEndpoint, ({ params }, { actor }) => integrations.revokeApiKey(actor, params.id));
  router.handle(ingestEventsEndpoint, ({ body }, { apiKey }) => events.ingest(body.events, apiKey));
  const incoming = new IncomingEventsService(deps);
  router.handle(stripeWebhookEndpoint, ({ body }) => incoming.receiveStripe(body));
  router.handle(clerkWebhookEndpoint, ({ body }) => incoming.receiveClerk(body));
  router.handle(listIncomingEventsEndpoint, ({ query }) => incoming.list(query));
  router.handle(retryIncomingEventEndpoint, ({ params }, { actor }) => incoming.retry(actor, params.id));
}
