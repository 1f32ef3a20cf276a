import { createHash, randomBytes } from "node:crypto";
import { EXPORT_LINK_TTL_SECONDS, type CreateExportResponse } from "../../../contract/exports.ts";
import type { AppDeps } from "../../platform/request/app-env.ts";
import { completeAuditDetails, recordAudit } from "../../domain/audit/audit-log.ts";
import { utcDay } from "../../platform/clock.ts";
import { redactFilters } from "../../platform/error-recorder/redact.ts";
import { logEvent } from "../../platform/logging/logger.ts";
import type { Actor } from "../../platform/identity/actor.ts";
import { HttpError, invalidField, notFound } from "../../platform/http/http-error.ts";
import { parseWith } from "../../platform/http/validate.ts";
import { csvLine } from "../../platform/exports/csv.ts";
import type { ExportKind } from "../../platform/exports/export-kind.ts";
import { consumeExportLink, deleteExpiredExportLinks, exportLinkExists, findUsableExportLink, insertExportLink } from "../../platform/exports/exports.queries.ts";

/** Rows read per statement: large enough to stream fast, small enough that no read holds the database long. */
export const EXPORT_PAGE_ROWS = 1000;

const linkId = (token: string) => createHash("sha256").update(token, "utf8").digest("hex");

/** The audit action of an export; its target is the link (by its id, the token's hash: the token itself is never stored). */
export const EXPORT_AUDIT_ACTION = "export.create";
const auditRow = (id: string) => ({ action: EXPORT_AUDIT_ACTION, target: { type: "export", id } });

/** Tokens are 43 characters; anything much longer is not one, and is not looked up. */
const MAX_TOKEN_LENGTH = 100;

/**
 * CSV exports (docs/product.md §10.10): a short-lived single-use link, then the file streamed
 * from the database page by page at constant memory, the browser saving it straight to disk.
 */
export class ExportsService {
  private readonly kinds: Map<string, ExportKind<unknown, unknown, unknown>>;

  constructor(
    private readonly deps: Pick<AppDeps, "database" | "clock" | "config" | "logger">,
    kinds: ReadonlyArray<ExportKind<never, never, never>>,
    private readonly pageRows = EXPORT_PAGE_ROWS,
  ) {
    this.kinds = new Map(kinds.map((k) => [k.kind, k as unknown as ExportKind<unknown, unknown, unknown>]));
  }

  /**
   * Makes the link, and the export's audit row in the same transaction (docs/product.md §14.4): who,
   * which kind, which filters (only their plain values: error-recorder/redact.ts), and the rows it
   * sent once it has been downloaded (`rowCount`, null until then).
   */
  async createLink(actor: Actor, kind: string, filters: Record<string, string>): Promise<CreateExportResponse> {
    const exportKind = this.kinds.get(kind);
    if (!exportKind) throw invalidField("kind", `unknown export (known: ${[...this.kinds.keys()].join(", ") || "none"})`);
    // Named as the client sent them: `filters.state`.
    const parsed = parseWith(exportKind.filters, filters, "filters");
    const token = randomBytes(32).toString("base64url");
    const now = this.deps.clock.now();
    const expiresAt = new Date(now.getTime() + EXPORT_LINK_TTL_SECONDS * 1000).toISOString();
    const { db } = this.deps.database;
    await db.transaction().execute(async (trx) => {
      await deleteExpiredExportLinks(trx, now.toISOString());
      await insertExportLink(trx, { id: linkId(token), kind, filters: parsed, createdBy: actor.user.email, createdAt: now.toISOString(), expiresAt });
      await recordAudit(
        trx,
        {
          actor,
          action: EXPORT_AUDIT_ACTION,
          target: { ...auditRow(linkId(token)).target, label: kind },
          details: { kind, filters: redactFilters(exportKind.filters, filters), rowCount: null },
        },
        this.deps.clock,
      );
    });
    // The panel's public address (PUBLIC_URL) starts the link, never the request's Host.
    return { url: `${this.deps.config.publicUrl}/api/exports/${token}`, expiresAt, filename: fileName(exportKind, now) };
  }

  /**
   * The CSV as a streamed answer; the link is spent first, so it never downloads twice. When the
   * stream ends (or the client stops reading), the export's audit row gets the rows sent.
   */
  async download(token: string): Promise<Response> {
    const { db } = this.deps.database;
    const now = this.deps.clock.now();
    const id = linkId(token);
    const link = token.length <= MAX_TOKEN_LENGTH ? await consumeExportLink(db, id, now.toISOString()) : undefined;
    if (!link) throw await this.unusable(id, token);
    const exportKind = this.kinds.get(link.kind);
    if (!exportKind) throw notFound("This export no longer exists");
    const filters = JSON.parse(link.filters) as unknown;
    const sent = async (rowCount: number, complete: boolean) => {
      try {
        await completeAuditDetails(db, auditRow(id), { rowCount, complete, downloadedAt: this.deps.clock.now().toISOString() });
      } catch (err) {
        // The file has gone out either way; a row left without its count must not fail the download.
        logEvent(this.deps.logger, "error", "could not record the rows of an export", { kind: link.kind, err });
      }
    };
    return new Response(csvStream(exportKind, filters, db, this.pageRows, sent), { headers: csvHeaders(exportKind, now) });
  }

  /**
   * HEAD of a link: whether it would download, and what, without spending it (a link checker, a
   * proxy or a mail scanner probing it must not use up the one download).
   */
  async peek(token: string): Promise<Response> {
    const now = this.deps.clock.now();
    const id = linkId(token);
    const link = token.length <= MAX_TOKEN_LENGTH ? await findUsableExportLink(this.deps.database.db, id, now.toISOString()) : undefined;
    if (!link) throw await this.unusable(id, token);
    const exportKind = this.kinds.get(link.kind);
    if (!exportKind) throw notFound("This export no longer exists");
    return new Response(null, { headers: csvHeaders(exportKind, now) });
  }

  /** Why a link cannot be used: 410 when it existed (used or expired), 404 when it never did. */
  private async unusable(id: string, token: string): Promise<HttpError> {
    if (token.length <= MAX_TOKEN_LENGTH && (await exportLinkExists(this.deps.database.db, id))) return new HttpError(410, "gone", "This download link was used or has expired: export again");
    return notFound("No such download link");
  }
}

function csvHeaders(kind: ExportKind<unknown, unknown, unknown>, now: Date): Record<string, string> {
  return {
    "Content-Type": "text/csv; charset=utf-8",
    "Content-Disposition": `attachment; filename="${fileName(kind, now)}"`,
    "Cache-Control": "no-store",
  };
}

function fileName(kind: ExportKind<unknown, unknown, unknown>, now: Date): string {
  return `${kind.fileStem}-${utcDay(now)}.csv`;
}

/**
 * Pulls one page per read of the client: the next page is fetched only when the previous one has
 * been taken, so memory stays at one page whatever the size of the export. `ended` hears once how
 * many rows went out, and whether that was all of them.
 */
function csvStream(
  kind: ExportKind<unknown, unknown, unknown>,
  filters: unknown,
  db: AppDeps["database"]["db"],
  pageRows: number,
  ended: (rowCount: number, complete: boolean) => Promise<void>,
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let cursor: unknown;
  let started = false;
  let done = false;
  let rows = 0;
  let reported = false;
  const end = async (complete: boolean) => {
    if (reported) return;
    reported = true;
    await ended(rows, complete);
  };
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (!started) {
          started = true;
          // A byte-order mark so spreadsheet programs read the file as UTF-8.
          controller.enqueue(encoder.encode(`\uFEFF${csvLine(kind.columns.map((c) => c.header))}`));
          return;
        }
        if (done) {
          await end(true);
          controller.close();
          return;
        }
        let page: Awaited<ReturnType<typeof kind.readPage>>;
        try {
          page = await kind.readPage(db, filters, cursor, pageRows);
        } catch (err) {
          await end(false);
          throw err;
        }
        cursor = page.next;
        if (page.rows.length < pageRows || page.next === undefined) done = true;
        if (page.rows.length > 0) {
          rows += page.rows.length;
          controller.enqueue(encoder.encode(page.rows.map((row) => csvLine(kind.columns.map((c) => c.value(row)))).join("")));
        } else {
          await end(true);
          controller.close();
        }
      },
      // The client stopped reading (closed the connection): the rows it was sent so far.
      async cancel() {
        await end(false);
      },
    },
    { highWaterMark: 1 },
  );
}
