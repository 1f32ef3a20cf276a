import type { Insertable } from "kysely";
import type { AppSecretsTable } from "../db/schema.ts";
import type { Executor } from "../db/executor.ts";

/** The stored value of a named secret, or undefined when none is stored. */
export async function readAppSecret(db: Executor, name: string): Promise<string | undefined> {
  const row = await db.selectFrom("app_secrets").select("value").where("name", "=", name).executeTakeFirst();
  return row?.value;
}

/** The stored value of a named secret; throws (Kysely's NoResultError) when none is stored. */
export async function readAppSecretOrThrow(db: Executor, name: string): Promise<string> {
  const row = await db.selectFrom("app_secrets").select("value").where("name", "=", name).executeTakeFirstOrThrow();
  return row.value;
}

/** Stores the secret unless one of that name exists already (first writer wins, e.g. across replicas). */
export async function insertAppSecretIfAbsent(db: Executor, secret: Insertable<AppSecretsTable>): Promise<void> {
  await db
    .insertInto("app_secrets")
    .values(secret)
    .onConflict((oc) => oc.column("name").doNothing())
    .execute();
}
