import { parseArgs } from "node:util";
import { MAX_NAME_LENGTH } from "../../contract/admin-users.ts";
import { identityTextSchema } from "../../contract/common.ts";
import { COMMAND_LINE, changedValues, recordAudit } from "../domain/audit/audit-log.ts";
import { hashPassword } from "../platform/identity/password-hash.ts";
import { findUserByEmail, upsertUser } from "../platform/identity/users.ts";
import type { Clock } from "../platform/clock.ts";
import { type Executor, inTransaction } from "../platform/db/executor.ts";

const nameSchema = identityTextSchema({ max: MAX_NAME_LENGTH, requiredMessage: "must not be empty" });

export const USER_CREATE_USAGE = "npm run user:create -- --email E --password P [--role admin|viewer|user] [--name N] [--update]";

/**
 * `user:create`: creates a user. An account that already exists under that e-mail — compared
 * case-insensitively and without surrounding spaces, as sign-in compares it — is changed (its
 * password and role reset, its sessions ended) only with `--update`; without it the command
 * refuses and changes nothing, so a typo in the case of an address cannot take over an account.
 * The change and its audit row (actor "command line") are written in one transaction. A name
 * follows the rule of the accept form (docs/product.md §14.3): normalised, no control, invisible
 * or direction-changing characters. Returns the exit code; lines go to `out` and `err`.
 */
export async function runUserCreate(args: string[], db: Executor, clock: Clock, io: { out: (line: string) => void; err: (line: string) => void }): Promise<number> {
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
  const role = values.role;
  let name: string | undefined;
  if (values.name !== undefined) {
    const parsed = nameSchema.safeParse(values.name);
    if (!parsed.success) return fail(`--name ${parsed.error.issues[0]?.message ?? "is not valid"}`);
    name = parsed.data;
  }

  const existing = await findUserByEmail(db, values.email);
  if (existing && !values.update) {
    return fail(`a user ${existing.email} (role ${existing.role}) already exists; nothing was changed. Add --update to reset their password and role.`);
  }
  // Hashed before the transaction, so the database is not held while scrypt works.
  const passwordHash = await hashPassword(values.password);
  const { user, created } = await inTransaction(db, async (trx) => {
    const result = await upsertUser(trx, clock, { email: values.email!, password: values.password!, passwordHash, role, ...(name !== undefined ? { name } : {}) });
    const after = { role, ...(name !== undefined ? { name } : {}) };
    // An update always sets the password and ends the sessions; its before and after hold only the values that changed.
    const change = existing ? (changedValues({ role: existing.role, ...(name !== undefined ? { name: existing.name } : {}) }, after) ?? { before: null, after: null }) : { before: null, after };
    await recordAudit(
      trx,
      {
        actor: COMMAND_LINE,
        action: result.created ? "user.create" : "user.update",
        target: { type: "user", id: result.user.id, label: result.user.email },
        ...change,
        // The password is set either way (never written here); an update ends the account's sessions.
        details: { command: "user:create", ...(result.created ? {} : { sessionsEnded: true }) },
      },
      clock,
    );
    return result;
  });
  io.out(created ? `Created ${user.role} ${user.email}` : `Updated ${user.role} ${user.email} (password reset, sessions ended)`);
  return 0;
}
