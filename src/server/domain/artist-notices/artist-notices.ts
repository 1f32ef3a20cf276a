import type { Clock } from "../../platform/clock.ts";
import type { Executor } from "../../platform/db/executor.ts";
import type { JobQueue } from "../../platform/jobs/job-queue.ts";
import { queueMail } from "../../platform/mail/mail-outbox.ts";
import { SETTINGS_CATALOG } from "../settings/settings-catalog.ts";

/**
 * The e-mails an artist receives when the panel decides about them or their listings (docs/product.md
 * "Reasons for every decision"): written to the mail outbox in the decision's transaction, so the
 * artist is told exactly when the decision stands, with the reason the operator gave.
 */

export type ArtistDecision = "disabled" | "enabled" | "approved" | "rejected" | "changes_requested";
export type ListingDecision = "hidden" | "restored" | "approved" | "rejected";

export interface NoticeContext {
  trx: Executor;
  jobs: JobQueue;
  clock: Clock;
}

const ARTIST_SUBJECTS: Record<ArtistDecision, (store: string) => string> = {
  disabled: (store) => `Your store ${store} has been suspended`,
  enabled: (store) => `Your store ${store} is active again`,
  approved: (store) => `Welcome: your application for ${store} is approved`,
  rejected: (store) => `Your application for ${store} was not accepted`,
  changes_requested: (store) => `Your application for ${store}: changes needed`,
};

const ARTIST_LINES: Record<ArtistDecision, string> = {
  disabled: "Your store has been suspended by the HKI Global team: it is hidden from the marketplace and you cannot use your dashboard for now. Your data is kept.",
  enabled: "Your store is active again: it is visible on the marketplace and your dashboard is open.",
  approved: "Your application has been approved. Your store is now active and you can start listing your work.",
  rejected: "Thank you for applying. After reviewing your application we are not able to accept it.",
  changes_requested: "Thank you for applying. Before we can decide, we need a few changes to your application. Please update it on the storefront and send it again.",
};

/** `what`: 'listing "Name"' for one, '3 listings' for several. */
const LISTING_SUBJECTS: Record<ListingDecision, (what: string, several: boolean) => string> = {
  hidden: (what, several) => `Your ${what} ${several ? "have" : "has"} been taken down`,
  restored: (what, several) => `Your ${what} ${several ? "are" : "is"} back`,
  approved: (what, several) => `Your ${what} ${several ? "are" : "is"} live`,
  rejected: (what, several) => `Your ${what} ${several ? "were" : "was"} not approved`,
};

const LISTING_LINES: Record<ListingDecision, string> = {
  hidden: "One of your listings has been taken down by the HKI Global team and is no longer shown to buyers.",
  restored: "Your listing is shown to buyers again, as you have it on your dashboard.",
  approved: "Your listing has been reviewed and is now live on the marketplace.",
  rejected: "Your listing has been reviewed and cannot be published on the marketplace.",
};

async function supportAddress(trx: Executor): Promise<string> {
  const row = await trx.selectFrom("platform_settings").select("value").where("key", "=", "support_email").executeTakeFirst();
  return row?.value || SETTINGS_CATALOG.support_email.defaultValue;
}

function body(greeting: string, line: string, reasonLabel: string, reason: string | null, support: string): string {
  return [`Hello ${greeting},`, "", line, ...(reason ? ["", `${reasonLabel}: ${reason}`] : []), "", `Questions? Write to ${support}.`, "", "The HKI Global team"].join("\n");
}

/** Queues the artist's e-mail about a decision on their store or application. Returns the outbox row's id. */
export async function mailArtistDecision(c: NoticeContext, vendor: { id: string; name: string; owner_name: string; email: string }, decision: ArtistDecision, reason: string | null): Promise<string> {
  const support = await supportAddress(c.trx);
  const label = decision === "changes_requested" ? "What we need" : decision === "enabled" || decision === "approved" ? "Note" : "Reason";
  return queueMail(c.trx, c.jobs, c.clock, {
    to: vendor.email,
    subject: ARTIST_SUBJECTS[decision](vendor.name),
    text: body(vendor.owner_name, ARTIST_LINES[decision], label, reason, support),
    reference: `vendor:${vendor.id}:${decision}`,
  });
}

/**
 * Queues the artist's e-mail about a decision on their listings: one e-mail per artist, naming each
 * listing the decision moved (a bulk decision over many artists writes one e-mail to each). Returns
 * the outbox row's id.
 */
export async function mailListingDecision(
  c: NoticeContext,
  vendor: { id: string; owner_name: string; email: string },
  products: ReadonlyArray<{ id: string; name: string }>,
  decision: ListingDecision,
  reason: string | null,
): Promise<string> {
  const support = await supportAddress(c.trx);
  const first = products[0]!;
  const several = products.length > 1;
  const subject = LISTING_SUBJECTS[decision](several ? `${products.length} listings` : `listing "${first.name}"`, several);
  const listed = !several ? LISTING_LINES[decision] : `${LISTING_LINES[decision]}\n\nListings:\n${products.map((p) => `- ${p.name}`).join("\n")}`;
  return queueMail(c.trx, c.jobs, c.clock, {
    to: vendor.email,
    subject,
    text: body(vendor.owner_name, listed, decision === "restored" || decision === "approved" ? "Note" : "Reason", reason, support),
    reference: `product:${first.id}:${decision}`,
  });
}
