import { parseArgs } from "node:util";
import { findUserByEmail, upsertUser } from "../auth/users.ts";
import type { Clock } from "../clock.ts";
import type { Executor } from "../ledger/executor.ts";

export const USER_CREATE_USAGE = "npm run user:create -- --email E --password P [--role admin|viewer|user] [--name N] [--update]";

/**
 * `user:create`: creates a user. An account that already exists under that e-mail — compared
 * case-insensitively and without surrounding spaces, as sign-in compares it — is changed (its
 * password and role reset, its sessions ended) only with `--update`; without it the command
 * refuses and changes nothing, so a typo in the case of an address cannot take over an account.
 * Returns the exit code; lines go to `out` and `err`.
 */
export async function runUserCreate(
  args: string[],
  db: Executor,
  clock: Clock,
  io: { out: (line: string) => void; err: (line: string) => void },
): Promise<number> {
  const fail = (message: string) => {
    io.err(`user:create: ${message}`);
    return 2;
  };
  let values;
  try {
    ({ values } = parseArgs({
      args,
      options: {
        email: { type: "string" },
        password: { type: "string" },
        role: { type: "string", default: "user" },
        name: { type: "string" },
        update: { type: "boolean", default: false },
      },
      strict: true,
    }));
  } catch (err) {
    return fail(`${err instanceof Error ? err.message : String(err)}\nUsage: ${USER_CREATE_USAGE}`);
  }
  if (!values.email || !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(values.email.trim())) return fail("--email must be an e-mail address");
  if (!values.password || values.password.length < 8) return fail("--password must be at least 8 characters");
  if (values.role !== "admin" && values.role !== "viewer" && values.role !== "user") return fail("--role must be admin, viewer or user");

  const existing = await findUserByEmail(db, values.email);
  if (existing && !values.update) {
    return fail(`a user ${existing.email} (role ${existing.role}) already exists; nothing was changed. Add --update to reset their password and role.`);
  }
  const { user, created } = await upsertUser(db, clock, {
    email: values.email,
    password: values.password,
    role: values.role,
    ...(values.name ? { name: values.name } : {}),
  });
  io.out(created ? `Created ${user.role} ${user.email}` : `Updated ${user.role} ${user.email} (password reset, sessions ended)`);
  return 0;
}
