import type { Transaction } from "kysely";
import type { DB, Vendor } from "../platform/db/schema.ts";
import type { Random } from "./random.ts";
import type { StaffRole } from "../../contract/access.ts";

/** The demo's read-only staff member (no password: an admin can remove or promote them, not sign in as them). */
export const DEMO_VIEWER_EMAIL = "avery.quinn@accounting.example";
/** The demo's staff in the two job roles (docs/product.md "Roles"): no password either. */
export const DEMO_FINANCE_EMAIL = "morgan.hale@accounting.example";
export const DEMO_SUPPORT_EMAIL = "sam.rivera@artistcare.example";
/** The demo's pending invitation (nobody holds its link: only a hash is stored; Resend makes a new one). */
export const DEMO_INVITED_EMAIL = "new.colleague@partners.example";

const DAY_MS = 86_400_000;

export interface DemoStaffInput {
  rand: Random;
  /** An instant `daysAgo` whole days before today at `fraction` of that day (demo.ts). */
  at: (daysAgo: number, fraction: number) => number;
  vendors: readonly Vendor[];
  /** Who did the demo's admin actions: the first admin. */
  adminEmail: string;
}

/**
 * Staff for the demo (docs/product.md §14): a viewer who was invited and accepted (with two passkeys), a pending
 * invitation, and the audit rows of that story and of a few everyday admin actions, consistent
 * with the data (the disabled vendor is inactive; maintenance mode went on and off again). Every
 * id and time comes from the seed's generator, so the same seed on the same day gives the same rows.
 * Returns how many audit rows it wrote.
 */
export async function seedDemoStaff(trx: Transaction<DB>, input: DemoStaffInput): Promise<number> {
  const { rand, at, vendors, adminEmail } = input;
  const iso = (ms: number) => new Date(ms).toISOString();
  const hex = () =>
    Array.from({ length: 4 }, () =>
      Math.floor(rand.next() * 0x1_0000_0000)
        .toString(16)
        .padStart(8, "0"),
    ).join("");
  const admin = await trx.selectFrom("users").select(["id", "role"]).where("email", "=", adminEmail).executeTakeFirst();
  const actor = { actor_email: adminEmail, actor_id: admin?.id ?? null, actor_role: "admin", ip_address: "203.0.113.10", user_agent: "Mozilla/5.0 (demo)" };
  // An invitation the first admin sent at `sentAt`, valid for 7 days, accepted when `accepted` is given.
  const insertInvitation = async (id: string, email: string, role: StaffRole, sentAt: number, accepted?: { at: number; userId: string }) => {
    await trx
      .insertInto("user_invitations")
      .values({
        id,
        email,
        role,
        token_hash: hex() + hex(),
        invited_by_id: actor.actor_id,
        invited_by_email: adminEmail,
        created_at: iso(sentAt),
        expires_at: iso(sentAt + 7 * DAY_MS),
        accepted_at: accepted ? iso(accepted.at) : null,
        accepted_user_id: accepted?.userId ?? null,
        revoked_at: null,
        revoked_reason: null,
        provider_invitation_id: null,
      })
      .execute();
  };

  // The viewer: invited 12 days ago, accepted the next day, signed in last 2 days ago.
  const invitedAt = at(12, 0.4);
  const acceptedAt = at(11, 0.6);
  const viewerId = rand.id(acceptedAt);
  await trx
    .insertInto("users")
    .values({ id: viewerId, email: DEMO_VIEWER_EMAIL, name: "Avery Quinn", role: "viewer", password_hash: null, created_at: iso(acceptedAt), updated_at: iso(acceptedAt) })
    .execute();
  const viewerInvitation = rand.id(invitedAt);
  await insertInvitation(viewerInvitation, DEMO_VIEWER_EMAIL, "viewer", invitedAt, { at: acceptedAt, userId: viewerId });
  const lastSignIn = at(2, 0.35);
  await trx
    .insertInto("sessions")
    .values({ id: hex() + hex(), user_id: viewerId, created_at: iso(lastSignIn), expires_at: iso(lastSignIn + 12 * 3_600_000), revoked_at: null })
    .execute();

  // The pending invitation: sent yesterday, valid six more days.
  const pendingAt = at(1, 0.5);
  const pendingId = rand.id(pendingAt);
  await insertInvitation(pendingId, DEMO_INVITED_EMAIL, "admin", pendingAt);

  const disabled = vendors.find((v) => v.is_active === 0 && v.is_internal === 0);
  const maintenanceOn = at(5, 0.3);
  type Row = { at: number; action: string; target: [string, string, string | null]; before?: object; after?: object; details?: object; by?: "viewer" };
  const rows: Row[] = [
    {
      at: invitedAt,
      action: "invitation.create",
      target: ["invitation", viewerInvitation, DEMO_VIEWER_EMAIL],
      after: { email: DEMO_VIEWER_EMAIL, role: "viewer", expiresAt: iso(invitedAt + 7 * DAY_MS) },
      details: { replaced: null, delivery: "email" },
    },
    {
      at: acceptedAt,
      action: "invitation.accept",
      target: ["invitation", viewerInvitation, DEMO_VIEWER_EMAIL],
      after: { role: "viewer" },
      details: { userId: viewerId, invitedBy: adminEmail, newAccount: true },
      by: "viewer",
    },
    { at: maintenanceOn, action: "settings.update", target: ["settings", "platform", "maintenance_mode"], before: { maintenance_mode: "false" }, after: { maintenance_mode: "true" } },
    { at: maintenanceOn + 40 * 60_000, action: "settings.update", target: ["settings", "platform", "maintenance_mode"], before: { maintenance_mode: "true" }, after: { maintenance_mode: "false" } },
    { at: at(3, 0.7), action: "error_logs.archive_all", target: ["error_logs", "warning", "warning entries"], details: { level: "warning", archived: 0 } },
    {
      at: pendingAt,
      action: "invitation.create",
      target: ["invitation", pendingId, DEMO_INVITED_EMAIL],
      after: { email: DEMO_INVITED_EMAIL, role: "admin", expiresAt: iso(pendingAt + 7 * DAY_MS) },
      details: { replaced: null, delivery: "email" },
    },
  ];
  if (disabled) {
    rows.push({
      at: at(8, 0.55),
      action: "vendor.disable",
      target: ["vendor", disabled.id, disabled.name],
      before: { isActive: true },
      after: { isActive: false },
      details: { name: disabled.name, isActive: { from: true, to: false } },
    });
  }
  // The viewer's passkeys (docs/product.md "Two-step sign-in"): one used at their last sign-in, one never
  // used. Their keys are random bytes held by no authenticator: they show in the lists and can be reset.
  const passkeys = [
    { name: "Work laptop", addedAt: at(10, 0.5), lastUsedAt: lastSignIn, transports: ["internal"] },
    { name: "YubiKey", addedAt: at(10, 0.52), lastUsedAt: null, transports: ["usb", "nfc"] },
  ];
  for (const passkey of passkeys) {
    const id = rand.id(passkey.addedAt);
    await trx
      .insertInto("passkeys")
      .values({
        id,
        user_id: viewerId,
        credential_id: Buffer.from(hex() + hex(), "hex").toString("base64url"),
        public_key: Buffer.from(hex() + hex() + hex(), "hex").toString("base64url"),
        counter: passkey.lastUsedAt === null ? 0 : 7,
        transports: JSON.stringify(passkey.transports),
        name: passkey.name,
        created_at: iso(passkey.addedAt),
        last_used_at: passkey.lastUsedAt === null ? null : iso(passkey.lastUsedAt),
      })
      .execute();
    rows.push({ at: passkey.addedAt, action: "auth.passkey_add", target: ["passkey", id, passkey.name], details: { user: DEMO_VIEWER_EMAIL }, by: "viewer" });
  }
  await seedJobRoles(trx, { rand, at, iso, rows });
  rows.sort((a, b) => a.at - b.at);
  for (const row of rows) {
    const who = row.by === "viewer" ? { actor_email: DEMO_VIEWER_EMAIL, actor_id: viewerId, actor_role: "viewer", ip_address: "198.51.100.23", user_agent: "Mozilla/5.0 (demo)" } : actor;
    await trx
      .insertInto("audit_log")
      .values({
        id: rand.id(row.at),
        ...who,
        action: row.action,
        target_type: row.target[0],
        target_id: row.target[1],
        target_label: row.target[2],
        before_value: row.before ? JSON.stringify(row.before) : null,
        after_value: row.after ? JSON.stringify(row.after) : null,
        details: JSON.stringify(row.details ?? {}),
        request_id: `demo-${row.action}-${Math.floor(row.at / 1000)}`,
        created_at: iso(row.at),
      })
      .execute();
  }
  return rows.length;
}

/**
 * A finance and a support member (docs/product.md "Roles"): the finance one was a viewer until an
 * admin changed the role (its audit row), the support one was added as support. Runs after the
 * rest of the demo staff, so their ids and times do not move the others'.
 */
async function seedJobRoles(
  trx: Transaction<DB>,
  input: { rand: Random; at: DemoStaffInput["at"]; iso: (ms: number) => string; rows: Array<{ at: number; action: string; target: [string, string, string | null]; before?: object; after?: object }> },
): Promise<void> {
  const { rand, at, iso, rows } = input;
  const financeAt = at(20, 0.45);
  const financeId = rand.id(financeAt);
  const supportAt = at(9, 0.3);
  const supportId = rand.id(supportAt);
  await trx
    .insertInto("users")
    .values([
      { id: financeId, email: DEMO_FINANCE_EMAIL, name: "Morgan Hale", role: "finance", password_hash: null, created_at: iso(financeAt), updated_at: iso(at(6, 0.5)) },
      { id: supportId, email: DEMO_SUPPORT_EMAIL, name: "Sam Rivera", role: "support", password_hash: null, created_at: iso(supportAt), updated_at: iso(supportAt) },
    ])
    .execute();
  rows.push({ at: at(6, 0.5), action: "user.role_change", target: ["user", financeId, DEMO_FINANCE_EMAIL], before: { role: "viewer" }, after: { role: "finance" } });
}
