import type { Executor } from "../../platform/db/executor.ts";

/** The role stored for a user in the local users table (null when there is no local row). */
export async function readLocalUserRole(db: Executor, userId: string): Promise<string | null> {
  const row = await db.selectFrom("users").select("role").where("id", "=", userId).executeTakeFirst();
  return row?.role ?? null;
}
