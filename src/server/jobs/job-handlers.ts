import type { AppDeps } from "../app-env.ts";
import type { JobWorker } from "./job-worker.ts";

/**
 * Every kind of background work, registered on the worker of a server process (serve.ts). An area
 * adds one line here: a function that registers its handlers (and schedules, for periodic work).
 */
export const jobRegistrations: Array<(worker: JobWorker, deps: AppDeps) => void> = [];
