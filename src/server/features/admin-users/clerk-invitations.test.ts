import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Actor } from "../../platform/identity/actor.ts";
import { type TestContext, createTestContext, testDatabaseKinds } from "../../testing/test-app.ts";
import { AdminUsersService } from "./admin-users.service.ts";

/**
 * A fake Clerk Backend API for invitations (the endpoints and shapes of Clerk's Backend API:
 * POST /v1/invitations, POST /v1/invitations/{id}/revoke), in memory, like the one
 * clerk-auth-provider.test.ts uses for sessions and users.
 */
function fakeClerkInvitations() {
  const invitations = new Map<string, { id: string; email_address: string; public_metadata: Record<string, unknown>; status: string; url: string }>();
  const calls: Array<{ method: string; path: string; body: unknown }> = [];
  const state = { refuse: null as null | { status: number; body: unknown } };
  let next = 1;
  const fetchImpl = (async (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const method = init?.method ?? "GET";
    const body = typeof init?.body === "string" ? (JSON.parse(init.body) as unknown) : undefined;
    calls.push({ method, path: url.pathname, body });
    if (new Headers(init?.headers).get("authorization") !== "Bearer sk_test_fake") return Response.json({ errors: [{ code: "authentication_invalid" }] }, { status: 401 });
    if (state.refuse) return Response.json(state.refuse.body, { status: state.refuse.status });
    if (method === "POST" && url.pathname === "/v1/invitations") {
      const request = body as { email_address: string; public_metadata: Record<string, unknown> };
      const id = `inv_${next++}`;
      const invitation = { id, email_address: request.email_address, public_metadata: request.public_metadata, status: "pending", url: `https://accounts.clerk.test/sign-up?__clerk_ticket=${id}` };
      invitations.set(id, invitation);
      return Response.json(invitation);
    }
    const revoke = /^\/v1\/invitations\/([^/]+)\/revoke$/.exec(url.pathname);
    if (method === "POST" && revoke) {
      const invitation = invitations.get(revoke[1]!);
      if (!invitation) return Response.json({ errors: [{ code: "resource_not_found" }] }, { status: 404 });
      invitation.status = "revoked";
      return Response.json(invitation);
    }
    return Response.json({ errors: [{ code: "resource_not_found" }] }, { status: 404 });
  }) as typeof fetch;
  return { fetchImpl, invitations, calls, state };
}

const CLERK_ENV = {
  AUTH_PROVIDER: "clerk",
  CLERK_SECRET_KEY: "sk_test_fake",
  CLERK_PUBLISHABLE_KEY: "pk_test_fake",
  CLERK_API_URL: "http://clerk.test",
  CLERK_ISSUER: "https://clerk.hki-test.example",
  CLERK_AUTHORIZED_PARTIES: "https://admin.hki-test.example",
};

describe.each(testDatabaseKinds)("invitations through Clerk's invitations API on %s (AUTH_PROVIDER=clerk)", (kind) => {
  let t: TestContext;
  let clerk: ReturnType<typeof fakeClerkInvitations>;
  let service: AdminUsersService;
  // Under Clerk the acting admin is a Clerk user (role admin in public metadata).
  const actor: Actor = { user: { id: "user_admin", email: "boss@gmail.com", name: "Boss", role: "admin", isAdmin: true }, clientIp: "203.0.113.9", userAgent: "tests", requestId: "req-clerk" };
  const origin = "https://admin.hki-test.example";

  beforeEach(async () => {
    clerk = fakeClerkInvitations();
    t = await createTestContext(kind, { env: { ...CLERK_ENV, PUBLIC_URL: origin }, fetchImpl: clerk.fetchImpl });
    service = new AdminUsersService(t.deps);
  });
  afterEach(async () => {
    await t.close();
  });

  const invitationRows = () => t.database.db.selectFrom("user_invitations").selectAll().orderBy("created_at").execute();
  const auditActions = async () => (await t.database.db.selectFrom("audit_log").select("action").orderBy("created_at").orderBy("id").execute()).map((r) => r.action);

  it("creates the invitation at Clerk with the role in public metadata; Clerk sends the e-mail and gives the link", async () => {
    const { invitation } = await service.invite(actor, "Helper@Example.com", "viewer");
    expect(clerk.calls).toEqual([
      {
        method: "POST",
        path: "/v1/invitations",
        body: { email_address: "helper@example.com", public_metadata: { role: "viewer" }, redirect_url: `${origin}/`, notify: true, ignore_existing: true, expires_in_days: 7 },
      },
    ]);
    expect(invitation).toMatchObject({ email: "helper@example.com", role: "viewer", link: "https://accounts.clerk.test/sign-up?__clerk_ticket=inv_1" });
    const [row] = await invitationRows();
    expect(row).toMatchObject({ id: invitation.id, provider_invitation_id: "inv_1", invited_by_email: "boss@gmail.com" });
    // Clerk sends its own e-mail: nothing goes through our outbox.
    expect(await t.database.db.selectFrom("mail_outbox").select("id").execute()).toEqual([]);
    expect(await auditActions()).toEqual(["invitation.create"]);
  });

  it("re-inviting revokes the previous Clerk invitation; resend and revoke go to Clerk too", async () => {
    const first = (await service.invite(actor, "helper@example.com", "viewer")).invitation;
    const second = (await service.invite(actor, "helper@example.com", "admin")).invitation;
    expect(clerk.invitations.get("inv_1")!.status).toBe("revoked");
    expect(clerk.invitations.get("inv_2")!.public_metadata).toEqual({ role: "admin" });
    expect(second.id).not.toBe(first.id);

    const resent = (await service.resendInvitation(actor, second.id)).invitation;
    expect(resent.link).toBe("https://accounts.clerk.test/sign-up?__clerk_ticket=inv_3");
    expect(clerk.invitations.get("inv_2")!.status).toBe("revoked");

    await service.revokeInvitation(actor, second.id);
    expect(clerk.invitations.get("inv_3")!.status).toBe("revoked");
    expect(clerk.calls.map((c) => `${c.method} ${c.path}`)).toEqual([
      "POST /v1/invitations",
      "POST /v1/invitations/inv_1/revoke",
      "POST /v1/invitations",
      "POST /v1/invitations/inv_2/revoke",
      "POST /v1/invitations",
      "POST /v1/invitations/inv_3/revoke",
    ]);
    expect(await auditActions()).toEqual(["invitation.create", "invitation.create", "invitation.resend", "invitation.revoke"]);
  });

  it("a refusal or failure at Clerk changes nothing here (409 with Clerk's reason, or 502)", async () => {
    clerk.state.refuse = { status: 422, body: { errors: [{ code: "form_identifier_exists", message: "exists", long_message: "That email address is taken." }] } };
    await expect(service.invite(actor, "taken@example.com", "viewer")).rejects.toMatchObject({ status: 409, message: "Clerk refused the invitation: That email address is taken." });
    clerk.state.refuse = { status: 500, body: {} };
    await expect(service.invite(actor, "later@example.com", "viewer")).rejects.toMatchObject({ status: 502 });
    expect(await invitationRows()).toEqual([]);
    expect(await auditActions()).toEqual([]);
  });

  it("accept links are Clerk's: the built-in accept calls answer 400", async () => {
    const check = await t.request("/api/auth/invitations/check", { method: "POST", json: { token: "x".repeat(43) } });
    expect(check.status).toBe(400);
    expect(((await check.json()) as { error: { message: string } }).error.message).toBe("Invitations are accepted through Clerk: use the link in the invitation e-mail");
    expect((await t.request("/api/auth/invitations/accept", { method: "POST", json: { token: "x".repeat(43), name: "N", password: "long enough pass" } })).status).toBe(400);
  });
});
