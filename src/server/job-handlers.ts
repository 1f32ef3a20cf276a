import type { AppDeps } from "./platform/request/app-env.ts";
import { auditJobs } from "./features/audit-log/audit-retention.job.ts";
import { payoutJobs } from "./features/financials/payout-run.job.ts";
import { announcementJobs } from "./features/communications/communications.job.ts";
import { topListsJobs } from "./features/analytics/top-lists.job.ts";
import { webhookJobs } from "./features/integrations/webhook-delivery.job.ts";
import { storefrontEventsJobs } from "./features/integrations/storefront-events-retention.job.ts";
import { incomingEventsJobs } from "./features/integrations/incoming-events.job.ts";
import { refundJobs } from "./features/orders/refunds.job.ts";
import { vendorHtmlCopiesJobs } from "./features/vendors/vendor-html-copies.job.ts";
import { mailJobs } from "./platform/mail/mail-outbox.ts";
import { registerRateLimitSweep } from "./platform/housekeeping/rate-limit-sweep.ts";
import type { JobWorker } from "./platform/jobs/job-worker.ts";

/**
 * Every kind of background work, registered on the worker of a server process (serve.ts). An area
 * adds one line here: a function that registers its handlers (and schedules, for periodic work).
 */
export const jobRegistrations: Array<(worker: JobWorker, deps: AppDeps) => void> = [
  auditJobs,
  mailJobs,
  (worker, deps) => payoutJobs(worker, deps),
  (worker, deps) => announcementJobs(worker, deps),
  registerRateLimitSweep,
  topListsJobs,
  webhookJobs,
  storefrontEventsJobs,
  incomingEventsJobs,
  (worker, deps) => refundJobs(worker, deps),
  vendorHtmlCopiesJobs,
];
