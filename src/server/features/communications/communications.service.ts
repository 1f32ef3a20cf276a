import type {
  AnnouncementItem,
  AnnouncementRequest,
  AnnouncementResponse,
  AnnouncementsResponse,
  PreviewResponse,
  PublicAnnouncementsResponse,
  RecipientsQuery,
  RecipientsResponse,
} from "../../../contract/communications.ts";
import { recordAudit } from "../../domain/audit/audit-log.ts";
import { decodeCursor, encodeCursor, encodeKeyset, keysetPage, readKeyset } from "../../platform/http/keyset-cursor.ts";
import { readSettings } from "../../domain/settings/settings.queries.ts";
import { inChunks } from "../../platform/db/in-chunks.ts";
import { recordEventOut } from "../../domain/outbox/events-out.ts";
import { newId } from "../../platform/db/ids.ts";
import { HttpError, conflict, notFound } from "../../platform/http/http-error.ts";
import type { Actor } from "../../platform/identity/actor.ts";
import type { AppDeps } from "../../platform/request/app-env.ts";
import { renderAnnouncement, renderMessage } from "./announcement-render.ts";
import { QUEUE_STALE_MS, enqueueSender, queueAllRecipients } from "./communications.job.ts";
import {
  type AnnouncementRow,
  type AudienceFilter,
  cancelPendingChunk,
  countAudience,
  currentDashboardAnnouncements,
  existingVendorIds,
  findAnnouncement,
  insertAnnouncement,
  listAnnouncementsPage,
  listRecipientsPage,
  retryFailedChunk,
  setAnnouncementStatus,
  takeDownDashboard,
} from "./communications.queries.ts";

/** Current dashboard announcements served at once (newest first). */
const PUBLIC_LIMIT = 20;

interface ValidAnnouncement extends AudienceFilter {
  title: string;
  message: string;
  email: boolean;
  dashboard: boolean;
  showUntil: string | null;
}

/**
 * Announcements to artists (docs/product.md §17): checks and counts an audience, writes an
 * announcement with its delivery records (in chunks, so other requests go on meanwhile) and its
 * audit row, and leaves the sending to the leased job (communications.job.ts).
 */
export class CommunicationsService {
  constructor(private readonly deps: Pick<AppDeps, "database" | "clock" | "config">) {}

  private get db() {
    return this.deps.database.db;
  }

  private now() {
    return this.deps.clock.now().toISOString();
  }

  /** The rules across fields, each reported on its field; the chosen ids must exist. */
  private async validate(body: AnnouncementRequest): Promise<ValidAnnouncement> {
    const fields: Record<string, string> = {};
    const email = body.channels.includes("email");
    const dashboard = body.channels.includes("dashboard");
    const vendorIds = [...new Set(body.vendorIds ?? [])].sort();
    if (body.audience === "vendorIds") {
      if (vendorIds.length === 0) fields.vendorIds = "choose at least one artist";
    } else if (body.vendorIds !== undefined) {
      fields.vendorIds = "only with audience vendorIds";
    }
    if (dashboard && body.audience === "vendorIds") fields.channels = "the dashboard shows to all, active or inactive artists; send chosen artists an e-mail only";
    let showUntil: string | null = null;
    if (body.showUntil !== undefined) {
      if (!dashboard) fields.showUntil = "only with the dashboard channel";
      else {
        showUntil = new Date(body.showUntil).toISOString();
        if (showUntil <= this.now()) fields.showUntil = "must be in the future";
      }
    }
    if (Object.keys(fields).length === 0 && vendorIds.length > 0) {
      const found = await existingVendorIds(this.db, vendorIds);
      const unknown = vendorIds.filter((id) => !found.has(id));
      if (unknown.length > 0) fields.vendorIds = `unknown vendor id${unknown.length > 1 ? "s" : ""}: ${unknown.slice(0, 5).join(", ")}${unknown.length > 5 ? ` and ${unknown.length - 5} more` : ""}`;
    }
    const [first] = Object.entries(fields);
    if (first) throw new HttpError(400, "invalid_input", `${first[0]}: ${first[1]}`, {}, fields);
    return { title: body.title.trim(), message: body.message, audience: body.audience, includeInternal: body.includeInternal ?? false, vendorIds, email, dashboard, showUntil };
  }

  private async countOrRefuse(v: ValidAnnouncement): Promise<number> {
    const recipients = await countAudience(this.db, v);
    if (recipients > 0) return recipients;
    const who = v.audience === "vendorIds" ? "None of the chosen artists can be reached" : `There are no ${v.audience === "all" ? "" : `${v.audience} `}artists`;
    const message = `${who}${v.includeInternal ? "" : " (internal stores excluded)"}: the audience is empty`;
    throw new HttpError(422, "empty_audience", message, {}, { audience: message });
  }

  private async render(v: Pick<ValidAnnouncement, "title" | "message">) {
    const replyTo = (await readSettings(this.db)).support_email.value.trim() || null;
    return renderAnnouncement({ title: v.title, message: v.message, replyTo });
  }

  async preview(body: AnnouncementRequest): Promise<PreviewResponse> {
    const v = await this.validate(body);
    const recipients = await countAudience(this.db, v);
    const { html, text } = await this.render(v);
    return { html, text, recipients };
  }

  async send(actor: Actor, body: AnnouncementRequest): Promise<AnnouncementResponse> {
    const v = await this.validate(body);
    const audienceSize = await this.countOrRefuse(v);
    const rendered = await this.render(v);
    const id = newId();
    const now = this.now();
    await this.db.transaction().execute(async (trx) => {
      await insertAnnouncement(trx, {
        id,
        title: v.title,
        message: v.message,
        html_body: rendered.html,
        text_body: rendered.text,
        audience: v.audience,
        include_internal: v.includeInternal ? 1 : 0,
        vendor_ids: v.audience === "vendorIds" ? JSON.stringify(v.vendorIds) : null,
        send_email: v.email ? 1 : 0,
        show_on_dashboard: v.dashboard ? 1 : 0,
        show_until: v.showUntil,
        taken_down_at: null,
        status: v.email ? "queueing" : "sent",
        queue_cursor: null,
        created_by: actor.user.email,
        created_at: now,
        updated_at: now,
        finished_at: v.email ? null : now,
      });
      await recordAudit(
        trx,
        {
          actor,
          action: "announcement.send",
          target: { type: "announcement", id, label: v.title },
          details: {
            audience: v.audience,
            includeInternal: v.includeInternal,
            channels: [...(v.email ? ["email"] : []), ...(v.dashboard ? ["dashboard"] : [])],
            artists: audienceSize,
            ...(v.audience === "vendorIds" ? { chosenVendors: v.vendorIds.length } : {}),
            ...(v.showUntil ? { showUntil: v.showUntil } : {}),
          },
        },
        this.deps.clock,
      );
      // Only the whole audiences reach dashboards (validate refuses chosen artists there).
      if (v.dashboard && v.audience !== "vendorIds") {
        await recordEventOut(
          trx,
          "announcement.published",
          {
            announcementId: id,
            title: v.title,
            message: v.message,
            html: renderMessage(v.message).fragment,
            audience: v.audience,
            publishedAt: now,
            showUntil: v.showUntil,
          },
          now,
        );
      }
      // Should this request die while queueing, this job finishes the queueing once it is quiet.
      if (v.email) await enqueueSender(trx, id, new Date(Date.parse(now) + QUEUE_STALE_MS).toISOString(), now, "queue-check");
    });
    if (v.email) {
      await queueAllRecipients(this.db, this.deps.clock, id);
      await enqueueSender(this.db, id, this.now(), this.now(), "start");
    }
    return this.get(id);
  }

  private toItem(row: AnnouncementRow): AnnouncementItem {
    const now = this.now();
    return {
      id: row.id,
      title: row.title,
      message: row.message,
      html: row.html_body,
      audience: row.audience,
      vendorIds: row.vendor_ids ? (JSON.parse(row.vendor_ids) as string[]) : null,
      includeInternal: row.include_internal === 1,
      channels: [...(row.send_email === 1 ? (["email"] as const) : []), ...(row.show_on_dashboard === 1 ? (["dashboard"] as const) : [])],
      status: row.status,
      showUntil: row.show_until,
      takenDownAt: row.taken_down_at,
      onDashboard: row.show_on_dashboard === 1 && row.taken_down_at === null && (row.show_until === null || row.show_until > now),
      createdAt: row.created_at,
      createdBy: row.created_by,
      finishedAt: row.finished_at,
      recipients: Number(row.recipients),
      sent: Number(row.sent_count),
      failed: Number(row.failed_count),
      pending: Number(row.pending_count),
      canceled: Number(row.canceled_count),
    };
  }

  private async found(id: string): Promise<AnnouncementRow> {
    const row = await findAnnouncement(this.db, id);
    if (!row) throw notFound("Announcement not found");
    return row;
  }

  async get(id: string): Promise<AnnouncementResponse> {
    return { announcement: this.toItem(await this.found(id)) };
  }

  async list(limit: number, cursor: string | undefined): Promise<AnnouncementsResponse> {
    const after = cursor ? decodeCursor(cursor) : null;
    const rows = await listAnnouncementsPage(this.db, limit + 1, after);
    const { page, nextCursor } = keysetPage(rows, limit, (last) => encodeCursor({ createdAt: last.created_at, id: last.id }));
    return { announcements: page.map((r) => this.toItem(r)), nextCursor };
  }

  async recipients(id: string, query: RecipientsQuery): Promise<RecipientsResponse> {
    const after = query.cursor ? readKeyset(query.cursor, ["string"])[0] : null;
    await this.found(id);
    const rows = await listRecipientsPage(this.db, id, query.status, query.limit + 1, after);
    const { page, nextCursor } = keysetPage(rows, query.limit, (last) => encodeKeyset([last.vendor_id]));
    return {
      recipients: page.map((r) => ({
        vendorId: r.vendor_id,
        vendorName: r.vendor_name,
        email: r.email,
        status: r.status === "sending" ? "pending" : r.status,
        attempts: Number(r.attempts),
        lastError: r.last_error,
        sentAt: r.sent_at,
      })),
      nextCursor,
    };
  }

  /** Stops sending: the announcement is canceled at once (senders stop before their next batch), then its pending recipients in chunks. */
  async cancel(actor: Actor, id: string): Promise<AnnouncementResponse> {
    await this.db.transaction().execute(async (trx) => {
      const row = await findAnnouncement(trx, id);
      if (!row) throw notFound("Announcement not found");
      if (!(await setAnnouncementStatus(trx, id, ["queueing", "sending"], "canceled", this.now()))) {
        throw conflict(row.status === "canceled" ? "This announcement has already been canceled" : "Nothing is left to send: every mail of this announcement has been sent or has failed");
      }
      await recordAudit(
        trx,
        { actor, action: "announcement.cancel", target: { type: "announcement", id, label: row.title }, details: { pending: Number(row.pending_count), sent: Number(row.sent_count) } },
        this.deps.clock,
      );
    });
    await inChunks((size) => cancelPendingChunk(this.db, id, size, this.now()));
    return this.get(id);
  }

  /** Sends again to every recipient whose mail failed (their attempts start over). */
  async retryFailed(actor: Actor, id: string): Promise<AnnouncementResponse> {
    await this.db.transaction().execute(async (trx) => {
      const row = await findAnnouncement(trx, id);
      if (!row) throw notFound("Announcement not found");
      if (row.status === "canceled") throw conflict("This announcement was canceled; nothing is sent any more");
      if (Number(row.failed_count) === 0) throw conflict("No mail of this announcement has failed");
      await setAnnouncementStatus(trx, id, ["sent"], "sending", this.now());
      await recordAudit(trx, { actor, action: "announcement.retry_failed", target: { type: "announcement", id, label: row.title }, details: { failed: Number(row.failed_count) } }, this.deps.clock);
    });
    await inChunks((size) => retryFailedChunk(this.db, id, size, this.now()));
    // A sender that finished meanwhile marked it sent again: it has pending recipients now.
    await setAnnouncementStatus(this.db, id, ["sent"], "sending", this.now());
    await enqueueSender(this.db, id, this.now(), this.now(), `retry-${newId()}`);
    return this.get(id);
  }

  /** Takes the announcement off artists' dashboards (the e-mails are not affected). */
  async takeDown(actor: Actor, id: string): Promise<AnnouncementResponse> {
    await this.db.transaction().execute(async (trx) => {
      const row = await findAnnouncement(trx, id);
      if (!row) throw notFound("Announcement not found");
      if (!(await takeDownDashboard(trx, id, this.now()))) {
        throw conflict(row.show_on_dashboard !== 1 ? "This announcement is not on the dashboard" : "This announcement has already been taken down");
      }
      await recordEventOut(trx, "announcement.withdrawn", { announcementId: id, withdrawnAt: this.now() }, this.now());
      await recordAudit(trx, { actor, action: "announcement.take_down", target: { type: "announcement", id, label: row.title } }, this.deps.clock);
    });
    return this.get(id);
  }

  /** What artists see on their dashboard now: texts and dates only. */
  async publicAnnouncements(): Promise<PublicAnnouncementsResponse> {
    const rows = await currentDashboardAnnouncements(this.db, this.now(), PUBLIC_LIMIT);
    return {
      announcements: rows
        .filter((r): r is typeof r & { audience: "all" | "active" | "inactive" } => r.audience !== "vendorIds")
        .map((r) => ({ title: r.title, message: r.message, html: renderMessage(r.message).fragment, audience: r.audience, publishedAt: r.created_at, showUntil: r.show_until })),
    };
  }
}
