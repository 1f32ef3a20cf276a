import type { AnnouncementAudience, AnnouncementRequest } from "@contract/communications";

/** What the composer holds while an admin writes (docs/product.md §17.4). */
export interface ComposerForm {
  title: string;
  message: string;
  audience: AnnouncementAudience;
  /** The chosen artists (audience vendorIds), with their names for the chips. */
  chosen: ReadonlyArray<{ id: string; name: string }>;
  includeInternal: boolean;
  email: boolean;
  dashboard: boolean;
  /** A datetime-local value ("2026-12-24T18:00", the browser's time zone), or "". */
  showUntil: string;
}

export const EMPTY_FORM: ComposerForm = { title: "", message: "", audience: "all", chosen: [], includeInternal: false, email: true, dashboard: false, showUntil: "" };

/**
 * The request the form stands for, or null while it is not complete enough to preview or send
 * (no title, message or channel; chosen artists with none chosen). The server checks the rest.
 */
export function requestOf(form: ComposerForm): AnnouncementRequest | null {
  const channels = [...(form.email ? (["email"] as const) : []), ...(form.dashboard ? (["dashboard"] as const) : [])];
  if (form.title.trim() === "" || form.message.trim() === "" || channels.length === 0) return null;
  if (form.audience === "vendorIds" && form.chosen.length === 0) return null;
  const until = form.dashboard && form.showUntil ? new Date(form.showUntil) : null;
  return {
    title: form.title.trim(),
    message: form.message,
    audience: form.audience,
    ...(form.audience === "vendorIds" ? { vendorIds: form.chosen.map((c) => c.id) } : {}),
    ...(form.includeInternal ? { includeInternal: true } : {}),
    channels,
    ...(until && !Number.isNaN(until.getTime()) ? { showUntil: until.toISOString() } : {}),
  };
}

/** Why Send is not available yet, in words (null when it is). */
export function missingPart(form: ComposerForm): string | null {
  if (form.title.trim() === "") return "Write a title";
  if (form.message.trim() === "") return "Write a message";
  if (!form.email && !form.dashboard) return "Choose at least one channel";
  if (form.audience === "vendorIds" && form.chosen.length === 0) return "Choose at least one artist";
  return null;
}
