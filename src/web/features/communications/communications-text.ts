import type { AnnouncementAudience, AnnouncementItem, AnnouncementStatus, RecipientStatus } from "@contract/communications";
import type { BadgeVariant } from "@web/components/ui/badge";
import { countOf } from "@web/lib/format";

/** The words of the communications screens (docs/product.md §17.4). */

export const AUDIENCE_LABELS: Record<AnnouncementAudience, string> = { all: "All artists", active: "Active artists", inactive: "Inactive artists", vendorIds: "Chosen artists" };

export const ANNOUNCEMENT_STATUS_LABELS: Record<AnnouncementStatus, string> = { queueing: "Queueing", sending: "Sending", sent: "Sent", canceled: "Canceled" };
export const ANNOUNCEMENT_STATUS_BADGE: Record<AnnouncementStatus, BadgeVariant> = { queueing: "info", sending: "info", sent: "success", canceled: "secondary" };

export const RECIPIENT_STATUS_LABELS: Record<RecipientStatus, string> = { pending: "Pending", sent: "Sent", failed: "Failed", canceled: "Canceled" };
export const RECIPIENT_STATUS_BADGE: Record<RecipientStatus, BadgeVariant> = { pending: "info", sent: "success", failed: "destructive", canceled: "secondary" };

export const FORMATTING_HINT = "Plain text. A blank line starts a paragraph; **bold**; links as [text](https://…) or a bare https:// address.";

/** 'Email, Dashboard' */
export function channelsText(a: Pick<AnnouncementItem, "channels">): string {
  return a.channels.map((c) => (c === "email" ? "Email" : "Dashboard")).join(", ");
}

/** Who it went to, in words: 'Active artists (internal stores included)'. */
export function audienceText(a: Pick<AnnouncementItem, "audience" | "includeInternal" | "vendorIds">): string {
  const who = a.audience === "vendorIds" ? countOf(a.vendorIds?.length ?? 0, "chosen artist") : AUDIENCE_LABELS[a.audience];
  return a.includeInternal ? `${who} (internal stores included)` : who;
}

/** The share of mails settled (sent, failed or canceled), 0–100. */
export function settledPercent(a: Pick<AnnouncementItem, "recipients" | "pending">): number {
  if (a.recipients === 0) return 100;
  return Math.round(((a.recipients - a.pending) / a.recipients) * 100);
}
