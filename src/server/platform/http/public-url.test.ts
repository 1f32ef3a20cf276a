import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { inviteResponseSchema } from "../../../contract/admin-users.ts";
import { createExportResponseSchema } from "../../../contract/exports.ts";
import { type TestContext, createTestContext, testDatabaseKinds } from "../../testing/test-app.ts";

const PUBLIC_URL = "https://admin.hki-panel.example";
/** What an attacker sends to steer links: a Host of their own and the proxy headers. */
const HOSTILE = { host: "evil.example", "x-forwarded-host": "evil.example", "x-forwarded-proto": "http", "x-forwarded-port": "8080", forwarded: "host=evil.example;proto=http" };

/** Issue 18 finding 5: the Host header decided the invitation link (and `http://` behind TLS termination). */
describe.each(testDatabaseKinds)("links start with PUBLIC_URL, whatever the request's Host (%s)", (kind) => {
  let t: TestContext;
  let admin: Awaited<ReturnType<TestContext["createUser"]>>;
  beforeEach(async () => {
    t = await createTestContext(kind, { env: { PUBLIC_URL } });
    admin = await t.createUser({ email: "links@hki.global" });
  });
  afterEach(async () => {
    await t.close();
  });

  const hostile = (path: string, json: unknown) => t.request(`http://evil.example${path}`, { method: "POST", token: admin.token, headers: HOSTILE, json });

  it("the attack: Host: evil.example no longer puts its address in the invitation link or its e-mail", async () => {
    const res = await hostile("/api/admin/users/invite", { email: "target@example.com", role: "admin" });
    expect(res.status).toBe(201);
    const { invitation } = inviteResponseSchema.parse(await res.json());
    expect(invitation.link!.startsWith(`${PUBLIC_URL}/accept-invite?token=`)).toBe(true);
    const [mail] = await t.database.db.selectFrom("mail_outbox").select("text_body").execute();
    expect(mail!.text_body).toContain(`${PUBLIC_URL}/accept-invite?token=`);
    expect(mail!.text_body).not.toMatch(/evil\.example|http:\/\//);

    const resent = await hostile(`/api/admin/users/invitations/${invitation.id}/resend`, undefined);
    expect(resent.status).toBe(200);
    expect(inviteResponseSchema.parse(await resent.json()).invitation.link!.startsWith(`${PUBLIC_URL}/accept-invite?token=`)).toBe(true);
    const bodies = await t.database.db.selectFrom("mail_outbox").select("text_body").execute();
    expect(bodies.map((b) => b.text_body).join("\n")).not.toContain("evil.example");
  });

  it("export links start with PUBLIC_URL too, and still download", async () => {
    const res = await hostile("/api/admin/exports", { kind: "audit-log", filters: {} });
    expect(res.status).toBe(201);
    const { url } = createExportResponseSchema.parse(await res.json());
    expect(url).toMatch(new RegExp(`^${PUBLIC_URL.replaceAll(".", "\\.")}/api/exports/[\\w-]{40,}$`));
    const download = await t.request(url);
    expect(download.status).toBe(200);
    expect(download.headers.get("content-type")).toMatch(/^text\/csv/);
  });

  it("serves requests whatever their Host", async () => {
    const res = await t.request("http://evil.example/api/health", { headers: HOSTILE });
    expect(res.status).toBe(200);
  });
});
