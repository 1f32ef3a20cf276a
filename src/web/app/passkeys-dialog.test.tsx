import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { json, mockFetch, renderWithQuery } from "@web/test/render";
import PasskeysDialog from "./passkeys-dialog";

afterEach(() => {
  vi.unstubAllGlobals();
});

const laptop = { id: "p1", name: "Work laptop", createdAt: "2026-11-01T10:00:00.000Z", lastUsedAt: "2026-11-20T08:30:00.000Z" };
const key = { id: "p2", name: "YubiKey", createdAt: "2026-11-02T10:00:00.000Z", lastUsedAt: null };

/** The passkey endpoints as the dialog meets them; each request's method, path and body are kept. */
function api() {
  const sent: Array<{ key: string; body: unknown }> = [];
  let passkeys = [laptop, key];
  mockFetch((url, init) => {
    const route = `${init?.method ?? "GET"} ${url}`;
    sent.push({ key: route, body: init?.body ? JSON.parse(String(init.body)) : undefined });
    if (route === "GET /api/auth/passkeys") return json({ passkeys });
    if (route === "PATCH /api/auth/passkeys/p2") {
      passkeys = passkeys.map((p) => (p.id === "p2" ? { ...p, name: "Desk key" } : p));
      return json(passkeys[1]);
    }
    if (route === "DELETE /api/auth/passkeys/p1") {
      passkeys = passkeys.filter((p) => p.id !== "p1");
      return new Response(null, { status: 204 });
    }
    if (route === "POST /api/auth/passkeys/registration-options")
      return json({
        rp: { name: "HKI Global Admin", id: "localhost" },
        user: { id: "dQ", name: "ops@example.com", displayName: "Ops" },
        challenge: "Y2hhbGxlbmdl",
        pubKeyCredParams: [{ alg: -7, type: "public-key" }],
      });
    return json({ error: { code: "not_found", message: route } }, 404, "Not Found");
  });
  return sent;
}

describe("PasskeysDialog", () => {
  it("lists the passkeys with when each was last used; renames one; removes one after a confirmation naming it", async () => {
    const sent = api();
    renderWithQuery(<PasskeysDialog open onClose={() => undefined} />);
    const list = await screen.findByRole("list", { name: "Your passkeys" });
    expect(within(list).getByRole("listitem", { name: "Work laptop" })).toHaveTextContent(/Last used/);
    expect(within(list).getByRole("listitem", { name: "YubiKey" })).toHaveTextContent("Never used");

    await userEvent.click(within(within(list).getByRole("listitem", { name: "YubiKey" })).getByRole("button", { name: "Rename" }));
    const field = screen.getByLabelText("New name for “YubiKey”");
    await userEvent.clear(field);
    await userEvent.type(field, "Desk key");
    await userEvent.click(screen.getByRole("button", { name: "Save" }));
    expect(await within(list).findByRole("listitem", { name: "Desk key" })).toBeInTheDocument();
    expect(sent.find((r) => r.key === "PATCH /api/auth/passkeys/p2")?.body).toEqual({ name: "Desk key" });

    await userEvent.click(within(within(list).getByRole("listitem", { name: "Work laptop" })).getByRole("button", { name: "Remove" }));
    const confirm = await screen.findByRole("alertdialog", { name: "Remove the passkey “Work laptop”?" });
    expect(sent.some((r) => r.key.startsWith("DELETE"))).toBe(false);
    await userEvent.click(within(confirm).getByRole("button", { name: "Remove passkey" }));
    await vi.waitFor(() => expect(within(list).queryByRole("listitem", { name: "Work laptop" })).toBeNull());
    expect(sent.filter((r) => r.key === "DELETE /api/auth/passkeys/p1")).toHaveLength(1);
  });

  it("says so when the browser cannot use passkeys, and registers nothing", async () => {
    const sent = api();
    // jsdom has no WebAuthn, as an old or locked-down browser.
    renderWithQuery(<PasskeysDialog open onClose={() => undefined} />);
    await userEvent.type(await screen.findByLabelText("Name of the new passkey"), "Phone");
    await userEvent.click(screen.getByRole("button", { name: "Add a passkey" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("This browser cannot use passkeys");
    expect(sent.some((r) => r.key === "POST /api/auth/passkeys")).toBe(false);
  });
});
