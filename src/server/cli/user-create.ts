import { parseArgs } from "node:util";
import { upsertUser } from "../auth/users.ts";
import { systemClock } from "../clock.ts";
import { ConfigError, loadConfig } from "../config.ts";
import { openDatabase } from "../db/connect.ts";
import { migrateToLatest } from "../db/migrate.ts";

/** npm run user:create -- --email E --password P [--role admin|user] [--name N] */
async function main(): Promise<number> {
  const { values } = parseArgs({
    options: { email: { type: "string" }, password: { type: "string" }, role: { type: "string", default: "user" }, name: { type: "string" } },
    strict: true,
  });
  if (!values.email || !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(values.email)) return fail("--email must be an e-mail address");
  if (!values.password || values.password.length < 8) return fail("--password must be at least 8 characters");
  if (values.role !== "admin" && values.role !== "user") return fail("--role must be admin or user");

  const config = loadConfig();
  const database = openDatabase(config.database);
  try {
    await migrateToLatest(database.db);
    const { user, created } = await upsertUser(database.db, systemClock, {
      email: values.email,
      password: values.password,
      role: values.role,
      ...(values.name ? { name: values.name } : {}),
    });
    console.log(`${created ? "Created" : "Updated"} ${user.role} ${user.email}`);
    return 0;
  } finally {
    await database.close();
  }
}

function fail(message: string): number {
  console.error(`user:create: ${message}`);
  return 2;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(`user:create: ${err instanceof ConfigError ? err.message : err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  },
);
