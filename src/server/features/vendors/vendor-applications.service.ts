import type { ApplicationDecision, ApplicationDecisionResponse, ApplicationsQuery, ApplicationsResponse } from "../../../contract/vendors.ts";
import { recordAudit } from "../../domain/audit/audit-log.ts";
import { mailArtistDecision, type ArtistDecision } from "../../domain/artist-notices/artist-notices.ts";
import { type ApplicationOutcome, decideApplication } from "../../domain/ledger/applications.ts";
import { COUNTERS, readCounters } from "../../domain/ledger/counters.ts";
import { artistStatusOf } from "../../domain/ledger/vendors.ts";
import { recordEventOut } from "../../domain/outbox/events-out.ts";
import type { Executor } from "../../platform/db/executor.ts";
import { conflict, notFound } from "../../platform/http/http-error.ts";
import { encodeKeyset, keysetPage, readKeyset } from "../../platform/http/keyset-cursor.ts";
import type { Actor } from "../../platform/identity/actor.ts";
import type { AppDeps } from "../../platform/request/app-env.ts";
import { listPendingApplications } from "./vendor-applications.queries.ts";
import { findVendorsById } from "./vendor-sorts.queries.ts";
import { toVendorListItem } from "./vendors.queries.ts";

const MAIL_OF: Record<ApplicationDecision, ArtistDecision> = { approve: "approved", reject: "rejected", request_changes: "changes_requested" };
const AUDIT_OF: Record<ApplicationDecision, string> = { approve: "vendor.application_approve", reject: "vendor.application_reject", request_changes: "vendor.application_request_changes" };

/**
 * Artists' applications (docs/product.md §20.2): the queue, oldest first, and the decisions. Each
 * decision writes, in one transaction, the artist's new status with its reason and history row (the
 * ledger), one audit row, one `artist.status_changed` with the reason, and one e-mail to the artist.
 */
export class VendorApplicationsService {
  constructor(private readonly deps: Pick<AppDeps, "database" | "clock" | "jobs">) {}

  private get db() {
    return this.deps.database.db;
  }

  async list(query: ApplicationsQuery): Promise<ApplicationsResponse> {
    const after = query.cursor === undefined ? undefined : readKeyset(query.cursor, ["string", "string"] as const);
    const [rows, counters] = await Promise.all([listPendingApplications(this.db, after ? { appliedAt: after[0], id: after[1] } : undefined, query.limit + 1), readCounters(this.db)]);
    const { page, nextCursor } = keysetPage(rows, query.limit, (last) => encodeKeyset([last.appliedAt, last.id]));
    return { applications: page, total: counters[COUNTERS.vendorsPending], nextCursor };
  }

  /** The one rule of a decision, for one application and for many, in the caller's transaction: the ledger, the event and the e-mail. */
  private async applyDecision(trx: Executor, actor: Actor, vendorId: string, decision: ApplicationDecision, reason: string | null): Promise<ApplicationOutcome | null> {
    const { clock, jobs } = this.deps;
    const outcome = await decideApplication(trx, vendorId, decision, { reason, actor: { id: actor.user.id, email: actor.user.email } }, clock);
    if (!outcome) return null;
    await recordEventOut(trx, "artist.status_changed", { vendorId, artistId: outcome.after.external_id, status: artistStatusOf(outcome.after), reason }, clock.now().toISOString());
    await mailArtistDecision({ trx, jobs, clock }, outcome.after, MAIL_OF[decision], reason);
    return outcome;
  }

  /** Approves, rejects (with the reason) or asks for changes (with the message); 409 when the artist has no application waiting. */
  async decide(actor: Actor, vendorId: string, decision: ApplicationDecision, reason: string | undefined): Promise<ApplicationDecisionResponse> {
    const { clock } = this.deps;
    const note = reason?.trim() || null;
    const after = await this.db.transaction().execute(async (trx) => {
      const outcome = await this.applyDecision(trx, actor, vendorId, decision, note);
      if (!outcome) return null;
      await recordAudit(
        trx,
        {
          actor,
          action: AUDIT_OF[decision],
          target: { type: "vendor", id: vendorId, label: outcome.before.name },
          before: { status: artistStatusOf(outcome.before) },
          after: { status: artistStatusOf(outcome.after) },
          details: { name: outcome.before.name, ...(note ? { reason: note } : {}) },
        },
        clock,
      );
      return outcome.after;
    });
    if (!after) throw notFound("Vendor not found");
    return { ...toVendorListItem(after), artistStatus: artistStatusOf(after) };
  }

  /**
   * Approves up to MAX_BULK_VENDORS applications in one transaction, all or nothing: an unknown id
   * (404) or an artist without an application waiting (409) approves none. One audit row names them all.
   */
  async bulkApprove(actor: Actor, ids: string[], reason: string | undefined): Promise<{ approved: number }> {
    const { clock } = this.deps;
    const note = reason?.trim() || null;
    return this.db.transaction().execute(async (trx) => {
      const found = new Map((await findVendorsById(trx, ids)).map((v) => [v.id, v]));
      const missing = ids.filter((id) => !found.has(id));
      if (missing.length > 0) throw notFound(`No vendor with id ${missing.slice(0, 5).join(", ")}${missing.length > 5 ? ` and ${missing.length - 5} more` : ""}; nothing was approved`);
      const decided = ids.map((id) => found.get(id)!).filter((v) => v.approval_status !== "pending" && v.approval_status !== "changes_requested");
      if (decided.length > 0) {
        throw conflict(
          `${decided
            .slice(0, 5)
            .map((v) => `${v.name} (${artistStatusOf(v).replace("_", " ")})`)
            .join(", ")}${decided.length > 5 ? ` and ${decided.length - 5} more` : ""} have no application waiting; nothing was approved`,
        );
      }
      const approved: string[] = [];
      for (const id of ids) {
        const outcome = await this.applyDecision(trx, actor, id, "approve", note);
        if (!outcome) throw notFound(`No vendor with id ${id}; nothing was approved`);
        approved.push(id);
      }
      await recordAudit(
        trx,
        {
          actor,
          action: "vendor.bulk_application_approve",
          target: {
            type: "vendors",
            id: `${approved.length} vendors`,
            label: ids
              .slice(0, 3)
              .map((id) => found.get(id)!.name)
              .join(", "),
          },
          before: { status: "pending" },
          after: { status: "active" },
          details: { vendorIds: approved, ...(note ? { reason: note } : {}) },
        },
        clock,
      );
      return { approved: approved.length };
    });
  }
}
