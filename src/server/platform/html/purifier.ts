import { createRequire } from "node:module";
import createDOMPurify from "dompurify";

export type Purifier = ReturnType<typeof createDOMPurify>;
let purifier: Purifier | undefined;

/**
 * The process's one HTML sanitiser (DOMPurify on a jsdom window), made on first use: creating it
 * costs milliseconds and loading jsdom ~60 MB of memory, which a process that never sanitises HTML
 * (vendor custom HTML, announcements) need not pay. Each caller passes its own allow-list.
 */
export function htmlPurifier(): Purifier {
  if (!purifier) {
    const { JSDOM } = createRequire(import.meta.url)("jsdom") as typeof import("jsdom");
    purifier = createDOMPurify(new JSDOM("").window as unknown as Parameters<typeof createDOMPurify>[0]);
  }
  return purifier;
}
