import type { Executor } from "../db/executor.ts";

export async function insertExportLink(db: Executor, link: { id: string; kind: string; filters: unknown; createdBy: string; createdAt: string; expiresAt: string }): Promise<void> {
  await db
    .insertInto("export_links")
    .values({ id: link.id, kind: link.kind, filters: JSON.stringify(link.filters), created_by: link.createdBy, created_at: link.createdAt, expires_at: link.expiresAt, used_at: null })
    .execute();
}

/**
 * Marks an unused, unexpired link used and returns it; a second caller (or a late one) gets
 * nothing, so a link downloads once.
 */
export async function consumeExportLink(db: Executor, id: string, now: string): Promise<{ kind: string; filters: string; created_by: string } | undefined> {
  const result = await db.updateTable("export_links").set({ used_at: now }).where("id", "=", id).where("used_at", "is", null).where("expires_at", ">", now).executeTakeFirst();
  if (Number(result.numUpdatedRows) !== 1) return undefined;
  return db.selectFrom("export_links").select(["kind", "filters", "created_by"]).where("id", "=", id).executeTakeFirst();
}

/** The link if it could still be used (unused, unexpired), without spending it: what a HEAD request may learn. */
export async function findUsableExportLink(db: Executor, id: string, now: string): Promise<{ kind: string } | undefined> {
  return db.selectFrom("export_links").select("kind").where("id", "=", id).where("used_at", "is", null).where("expires_at", ">", now).executeTakeFirst();
}

export async function exportLinkExists(db: Executor, id: string): Promise<boolean> {
  return (await db.selectFrom("export_links").select("id").where("id", "=", id).executeTakeFirst()) !== undefined;
}

/** Links whose minute has passed are of no use: removed in one small statement when new ones are made. */
export async function deleteExpiredExportLinks(db: Executor, before: string): Promise<void> {
  await db.deleteFrom("export_links").where("expires_at", "<", before).execute();
}
