/**
 * When this process last began answering a request, so background work can yield more while
 * requests are coming in (platform/db/in-chunks.ts). One number per process, like the metrics:
 * the jobs and the app it measures share the process.
 */
let lastRequestAt = Number.NEGATIVE_INFINITY;

/** Called as each request begins (app.ts). */
export function noteRequest(): void {
  lastRequestAt = performance.now();
}

/** Milliseconds since a request last began in this process (Infinity before the first). */
export function msSinceLastRequest(): number {
  return performance.now() - lastRequestAt;
}
