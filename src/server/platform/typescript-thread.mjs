// A worker thread's start when the server runs from its TypeScript source (tests, `npm run dev`):
// tsx's loader is registered in this thread too, then the module named in workerData.entry runs.
// The production bundle starts its threads' own JavaScript files instead, so it never loads tsx.
import { workerData } from "node:worker_threads";
import { register } from "tsx/esm/api";

register();
await import(workerData.entry);
