import type { ArtistApplication, ApplicationDecision } from "../../../contract/vendors.ts";
import type { Clock } from "../../platform/clock.ts";
import type { Vendor, VendorApprovalStatus } from "../../platform/db/schema.ts";
import { type Executor, inTransaction } from "../../platform/db/executor.ts";
import { COUNTERS, incrementCounters } from "./counters.ts";
import { LedgerError } from "./ledger-error.ts";
import { artistStatusOf, recordVendorStatusChange, type StatusDecision } from "./vendors.ts";

/**
 * Artists' applications (docs/product.md §20.2): what the artist sent, and the operator's decision.
 * The vendors_pending counter counts approval_status 'pending'; an artist becomes active only by
 * approval, in the same transaction as its history row.
 */

/** The statuses an application can be decided from: waiting, or waiting for the artist's changes. */
const DECIDABLE: readonly VendorApprovalStatus[] = ["pending", "changes_requested"];

const NEXT: Record<ApplicationDecision, VendorApprovalStatus> = { approve: "approved", reject: "rejected", request_changes: "changes_requested" };

export interface ApplicationOutcome {
  before: Vendor;
  after: Vendor;
}

/**
 * Decides one application: approve (the artist becomes active), reject, or ask for changes; with the
 * reason on the artist and a row of its status history. Conditional on the status read, so two
 * decisions racing decide once (the later one finds it decided: invalid_state). Null for an unknown id.
 */
export async function decideApplication(db: Executor, vendorId: string, decision: ApplicationDecision, by: StatusDecision, clock: Clock): Promise<ApplicationOutcome | null> {
  return inTransaction(db, async (trx) => {
    const current = await trx.selectFrom("vendors").selectAll().where("id", "=", vendorId).executeTakeFirst();
    if (!current) return null;
    if (!DECIDABLE.includes(current.approval_status)) {
      throw new LedgerError("invalid_state", `${current.name} has no application waiting for a decision (it is ${artistStatusOf(current).replace("_", " ")})`);
    }
    const next = NEXT[decision];
    const at = clock.now().toISOString();
    const isActive = next === "approved" ? 1 : 0;
    const updated = await trx
      .updateTable("vendors")
      .set({ approval_status: next, is_active: isActive, status_reason: by.reason, updated_at: at })
      .where("id", "=", vendorId)
      .where("approval_status", "=", current.approval_status)
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) !== 1) throw new LedgerError("invalid_state", `${current.name}'s application was decided meanwhile: reload`);
    await incrementCounters(trx, {
      [COUNTERS.vendorsPending]: (next === "pending" ? 1 : 0) - (current.approval_status === "pending" ? 1 : 0),
      [COUNTERS.vendorsActive]: isActive - current.is_active,
    });
    const after: Vendor = { ...current, approval_status: next, is_active: isActive, status_reason: by.reason, updated_at: at };
    await recordVendorStatusChange(trx, vendorId, { action: decision, from: artistStatusOf(current), to: artistStatusOf(after), reason: by.reason, actor: by.actor, at });
    return { before: current, after };
  });
}

/**
 * Keeps what the artist sent with its application (artist.created or artist.updated). An artist
 * asked for changes who sends its application again is waiting again: pending, with `applied_at`
 * the time it arrived, and a row 'apply' in its history. Returns whether it went back to pending.
 */
export async function updateApplication(db: Executor, vendorId: string, application: ArtistApplication, at: string): Promise<boolean> {
  return inTransaction(db, async (trx) => {
    const current = await trx.selectFrom("vendors").select(["approval_status", "is_active"]).where("id", "=", vendorId).executeTakeFirst();
    if (!current) throw new LedgerError("not_found", `Vendor ${vendorId} not found`);
    const resubmitted = current.approval_status === "changes_requested";
    await trx
      .updateTable("vendors")
      .set({ application: JSON.stringify(application), ...(resubmitted ? { approval_status: "pending" as const, applied_at: at, status_reason: null } : {}) })
      .where("id", "=", vendorId)
      .execute();
    if (resubmitted) {
      await incrementCounters(trx, { [COUNTERS.vendorsPending]: 1 });
      await recordVendorStatusChange(trx, vendorId, { action: "apply", from: "changes_requested", to: "pending", reason: null, actor: STOREFRONT_ACTOR, at });
    }
    return resubmitted;
  });
}

/** Who the history names for what the storefront sent (an application arriving or sent again). */
export const STOREFRONT_ACTOR = { id: null, email: "storefront" } as const;
