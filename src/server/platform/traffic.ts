/**
 * When this process last began answering a request, so background work can yield more while
 * requests are coming in (platform/db/in-chunks.ts). One number per process, like the metrics:
 * the jobs and the app it measures share the process.
 */
let lastRequestAt = Number.NEGATIVE_INFINITY;
let lastReadAt = Number.NEGATIVE_INFINITY;

/** Called as each request begins (app.ts); `reads`: a GET or HEAD, someone waiting to see figures. */
export function noteRequest(reads = false): void {
  lastRequestAt = performance.now();
  if (reads) lastReadAt = lastRequestAt;
}

/** Milliseconds since a request last began in this process (Infinity before the first). */
export function msSinceLastRequest(): number {
  return performance.now() - lastRequestAt;
}

/** Milliseconds since a GET or HEAD last began in this process (Infinity before the first). */
export function msSinceLastRead(): number {
  return performance.now() - lastReadAt;
}
