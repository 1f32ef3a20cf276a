import type { AppDeps } from "../app-env.ts";
import { auditJobs } from "../audit/audit-retention.ts";
import { payoutJobs } from "../financial/payout-run.job.ts";
import { mailJobs } from "../mail/mail-outbox.ts";
import { registerRateLimitSweep } from "../http/rate-limit-sweep.ts";
import type { JobWorker } from "./job-worker.ts";

/**
 * Every kind of background work, registered on the worker of a server process (serve.ts). An area
 * adds one line here: a function that registers its handlers (and schedules, for periodic work).
 */
export const jobRegistrations: Array<(worker: JobWorker, deps: AppDeps) => void> = [
  auditJobs,
  mailJobs,
  (worker, deps) => payoutJobs(worker, deps),
  registerRateLimitSweep,
];
