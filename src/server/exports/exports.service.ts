import { createHash, randomBytes } from "node:crypto";
import { EXPORT_LINK_TTL_SECONDS, type CreateExportResponse } from "../../contract/exports.ts";
import type { AppDeps } from "../app-env.ts";
import { utcDay } from "../clock.ts";
import type { ActingUser } from "../http/endpoint-router.ts";
import { HttpError, invalidField, notFound } from "../http/http-error.ts";
import { parseWith } from "../http/validate.ts";
import { csvLine } from "./csv.ts";
import type { ExportKind } from "./export-kind.ts";
import { consumeExportLink, deleteExpiredExportLinks, exportLinkExists, insertExportLink } from "./exports.queries.ts";

/** Rows read per statement: large enough to stream fast, small enough that no read holds the database long. */
export const EXPORT_PAGE_ROWS = 1000;

const linkId = (token: string) => createHash("sha256").update(token, "utf8").digest("hex");

/**
 * CSV exports (docs/product.md §10.10): a short-lived single-use link, then the file streamed
 * from the database page by page at constant memory, the browser saving it straight to disk.
 */
export class ExportsService {
  private readonly kinds: Map<string, ExportKind<unknown, unknown, unknown>>;

  constructor(
    private readonly deps: Pick<AppDeps, "database" | "clock" | "config">,
    kinds: ReadonlyArray<ExportKind<never, never, never>>,
    private readonly pageRows = EXPORT_PAGE_ROWS,
  ) {
    this.kinds = new Map(kinds.map((k) => [k.kind, k as unknown as ExportKind<unknown, unknown, unknown>]));
  }

  async createLink(actor: ActingUser, kind: string, filters: Record<string, string>): Promise<CreateExportResponse> {
    const exportKind = this.kinds.get(kind);
    if (!exportKind) throw invalidField("kind", `unknown export (known: ${[...this.kinds.keys()].join(", ") || "none"})`);
    const parsed = parseWith(exportKind.filters, filters);
    const token = randomBytes(32).toString("base64url");
    const now = this.deps.clock.now();
    const expiresAt = new Date(now.getTime() + EXPORT_LINK_TTL_SECONDS * 1000).toISOString();
    const { db } = this.deps.database;
    await deleteExpiredExportLinks(db, now.toISOString());
    await insertExportLink(db, { id: linkId(token), kind, filters: parsed, createdBy: actor.email, createdAt: now.toISOString(), expiresAt });
    // The panel's public address (PUBLIC_URL) starts the link, never the request's Host.
    return { url: `${this.deps.config.publicUrl}/api/exports/${token}`, expiresAt, filename: fileName(exportKind, now) };
  }

  /** The CSV as a streamed answer; the link is spent first, so it never downloads twice. */
  async download(token: string): Promise<Response> {
    const { db } = this.deps.database;
    const now = this.deps.clock.now();
    const id = linkId(token);
    const link = token.length <= 100 ? await consumeExportLink(db, id, now.toISOString()) : undefined;
    if (!link) {
      if (token.length <= 100 && (await exportLinkExists(db, id))) throw new HttpError(410, "gone", "This download link was used or has expired: export again");
      throw notFound("No such download link");
    }
    const exportKind = this.kinds.get(link.kind);
    if (!exportKind) throw notFound("This export no longer exists");
    const filters = JSON.parse(link.filters) as unknown;
    return new Response(csvStream(exportKind, filters, db, this.pageRows), {
      headers: {
        "Content-Type": "text/csv; charset=utf-8",
        "Content-Disposition": `attachment; filename="${fileName(exportKind, now)}"`,
        "Cache-Control": "no-store",
      },
    });
  }
}

function fileName(kind: ExportKind<unknown, unknown, unknown>, now: Date): string {
  return `${kind.fileStem}-${utcDay(now)}.csv`;
}

/**
 * Pulls one page per read of the client: the next page is fetched only when the previous one has
 * been taken, so memory stays at one page whatever the size of the export.
 */
function csvStream(kind: ExportKind<unknown, unknown, unknown>, filters: unknown, db: AppDeps["database"]["db"], pageRows: number): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let cursor: unknown;
  let started = false;
  let done = false;
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
          controller.close();
          return;
        }
        const page = await kind.readPage(db, filters, cursor, pageRows);
        cursor = page.next;
        if (page.rows.length < pageRows || page.next === undefined) done = true;
        if (page.rows.length > 0) controller.enqueue(encoder.encode(page.rows.map((row) => csvLine(kind.columns.map((c) => c.value(row)))).join("")));
        else controller.close();
      },
    },
    { highWaterMark: 1 },
  );
}
