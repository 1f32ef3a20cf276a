import type { Executor } from "../../platform/db/executor.ts";

/** A trivial read that proves the database answers (not just the process). */
export async function pingDatabase(db: Executor): Promise<void> {
  await db.selectFrom("counters").select("name").limit(1).execute();
}
