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
} from "../../../contract/communications.ts";
import type { AppDeps } from "../../platform/request/app-env.ts";
import type { EndpointRouter } from "../../platform/request/endpoint-router.ts";
import { CommunicationsService } from "./communications.service.ts";

/** Announcements to artists (docs/product.md §17): admin-only, but the public list of current dashboard announcements. */
export function communicationsRoutes(router: EndpointRouter, deps: AppDeps): void {
  const communications = new CommunicationsService(deps);
  router.handle(sendAnnouncementEndpoint, ({ body }, { actor }) => communications.send(actor, body));
  router.handle(previewAnnouncementEndpoint, ({ body }) => communications.preview(body));
  router.handle(listAnnouncementsEndpoint, ({ query }) => communications.list(query.limit, query.cursor));
  router.handle(getAnnouncementEndpoint, ({ params }) => communications.get(params.id));
  router.handle(listRecipientsEndpoint, ({ params, query }) => communications.recipients(params.id, query));
  router.handle(retryFailedEndpoint, ({ params }, { actor }) => communications.retryFailed(actor, params.id));
  router.handle(cancelAnnouncementEndpoint, ({ params }, { actor }) => communications.cancel(actor, params.id));
  router.handle(takeDownAnnouncementEndpoint, ({ params }, { actor }) => communications.takeDown(actor, params.id));
  router.handle(publicAnnouncementsEndpoint, (_input) => communications.publicAnnouncements());
}
