import type { ArtistApplication } from "../../contract/vendors.ts";
import { decideApplication } from "../domain/ledger/applications.ts";
import { createVendor, setVendorActive } from "../domain/ledger/vendors.ts";
import type { Clock } from "../platform/clock.ts";
import { fixedClock } from "../platform/clock.ts";
import type { Executor } from "../platform/db/executor.ts";
import type { Vendor } from "../platform/db/schema.ts";

const DAY_MS = 86_400_000;
/** The storefront's address by default (STOREFRONT_URL): where the sample images would be. */
const DEMO_STOREFRONT = "http://localhost:5174";

/** Applicants, each with how long ago it applied and where it stands (docs/product.md §20.2). */
const APPLICANTS = [
  { name: "Saltmarsh Linocuts", owner: "Maren Holt", daysAgo: 0.3, state: "pending" },
  { name: "Pale Hour Ceramics", owner: "Jonas Ek", daysAgo: 2, state: "pending" },
  { name: "Fernwork Textiles", owner: "Ada Quist", daysAgo: 5, state: "pending" },
  { name: "Low Tide Press", owner: "Rui Tanaka", daysAgo: 9, state: "pending" },
  { name: "Copperleaf Etching", owner: "Lena Borg", daysAgo: 16, state: "pending" },
  { name: "Birchlight Studio", owner: "Oona Vik", daysAgo: 12, state: "changes_requested" },
  { name: "Mirror Copy Prints", owner: "Sam Reed", daysAgo: 20, state: "rejected" },
] as const;

const slugOf = (name: string) => name.toLowerCase().replace(/[^a-z0-9]+/g, "-");

function applicationOf(name: string): ArtistApplication {
  const slug = slugOf(name);
  return {
    portfolioUrl: `https://portfolio.example.com/${slug}`,
    statement: `${name} makes small editions by hand: each piece drawn, cut and finished in the studio. I would like to sell them to collectors who care how things are made.`,
    sampleImageUrls: [1, 2, 3].map((i) => `${DEMO_STOREFRONT}/uploads/${slug}-${i}.jpg`),
    referral: "A friend who sells on the marketplace",
  };
}

/**
 * The demo's applications and status decisions: applicants waiting for different times, one asked
 * for changes, one rejected (each with its history and reason), and the reasons of the demo's
 * suspended artists. Returns the applicants made.
 */
export async function seedDemoApplications(trx: Executor, options: { vendors: Vendor[]; now: Date; adminEmail: string }): Promise<Vendor[]> {
  const t = options.now.getTime();
  const actor = { id: null, email: options.adminEmail };
  const made: Vendor[] = [];
  for (const [i, a] of APPLICANTS.entries()) {
    const appliedMs = t - Math.round(a.daysAgo * DAY_MS);
    const clock: Clock = fixedClock(new Date(appliedMs).toISOString());
    const vendor = await createVendor(
      trx,
      {
        id: `0190e000-0000-7000-8000-0000000a${String(i).padStart(4, "0")}`,
        name: a.name,
        ownerName: a.owner,
        email: `${slugOf(a.owner).replace(/-/g, ".")}@example.com`,
        slug: slugOf(a.name),
        externalId: `art_demo_applicant_${i + 1}`,
        joinedAt: new Date(appliedMs).toISOString(),
        approvalStatus: "pending",
        application: applicationOf(a.name),
        appliedAt: new Date(appliedMs).toISOString(),
      },
      clock,
    );
    if (a.state === "changes_requested") {
      await decideApplication(trx, vendor.id, "request_changes", { reason: "Please add a portfolio link that shows your recent work", actor }, fixedClock(new Date(appliedMs + DAY_MS).toISOString()));
    } else if (a.state === "rejected") {
      await decideApplication(trx, vendor.id, "reject", { reason: "The work shown is not the artist's own", actor }, fixedClock(new Date(appliedMs + 2 * DAY_MS).toISOString()));
    }
    made.push(vendor);
  }

  // The demo's suspended artists: each suspension with its reason, who and when, through the ledger
  // (the flag back on for a moment, then off with the decision), and one of them suspended twice.
  const suspended = options.vendors.filter((v) => v.is_active === 0 && v.is_internal === 0).slice(0, 4);
  const reasons = ["Repeated complaints from buyers about orders not shipped", "Payment details could not be verified"];
  for (const [i, v] of suspended.entries()) {
    const at = (daysAgo: number) => fixedClock(new Date(t - daysAgo * DAY_MS).toISOString());
    await setVendorActive(trx, v.id, true, at(30 + i));
    await setVendorActive(trx, v.id, false, at(7 + i), { reason: reasons[i % reasons.length]!, actor });
    if (i === 0) {
      await setVendorActive(trx, v.id, true, at(5), { reason: "Shipping resumed", actor });
      await setVendorActive(trx, v.id, false, at(3), { reason: reasons[0]!, actor });
    }
  }
  return made;
}
