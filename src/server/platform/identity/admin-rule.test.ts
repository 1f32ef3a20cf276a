import { describe, expect, it } from "vitest";
import { hasPanelAccess, isAdminUser, panelPermissions, staffPrefixAccess, staffRoleOf } from "./admin-rule.ts";

describe("isAdminUser", () => {
  const domain = "hki.global";
  it("accepts the admin role whatever the e-mail", () => {
    expect(isAdminUser({ role: "admin", email: "someone@gmail.com" }, domain)).toBe(true);
  });
  it("accepts an e-mail at exactly the company domain, case-insensitively", () => {
    expect(isAdminUser({ role: "user", email: "ops@hki.global" }, domain)).toBe(true);
    expect(isAdminUser({ role: "user", email: "Ops@HKI.Global" }, domain)).toBe(true);
  });
  it("rejects look-alike domains", () => {
    for (const email of ["x@evilhki.global", "x@hki.global.evil.com", "x@sub.hki.global", "hki.global@evil.com", "@hki.global", "x@hki-global"]) {
      expect(isAdminUser({ role: "user", email }, domain), email).toBe(false);
    }
  });
});

describe('panel roles and panel access (docs/product.md "Roles")', () => {
  const domain = "hki.global";
  it("gives every panel role access, only viewers without any change; users nothing", () => {
    expect(panelPermissions({ role: "viewer", email: "support@example.com" }, domain)).toEqual({ isAdmin: false, staffRole: "viewer", panelAccess: true, canWrite: false });
    expect(panelPermissions({ role: "admin", email: "boss@example.com" }, domain)).toEqual({ isAdmin: true, staffRole: "admin", panelAccess: true, canWrite: true });
    expect(panelPermissions({ role: "finance", email: "books@example.com" }, domain)).toEqual({ isAdmin: false, staffRole: "finance", panelAccess: true, canWrite: true });
    expect(panelPermissions({ role: "support", email: "help@example.com" }, domain)).toEqual({ isAdmin: false, staffRole: "support", panelAccess: true, canWrite: true });
    // The domain rule wins over any stored role.
    expect(panelPermissions({ role: "viewer", email: "ops@hki.global" }, domain)).toEqual({ isAdmin: true, staffRole: "admin", panelAccess: true, canWrite: true });
    expect(panelPermissions({ role: "support", email: "ops@hki.global" }, domain).staffRole).toBe("admin");
    expect(panelPermissions({ role: "user", email: "artist@example.com" }, domain)).toEqual({ isAdmin: false, staffRole: null, panelAccess: false, canWrite: false });
    expect(hasPanelAccess({ role: "viewer", email: "support@example.com" }, domain)).toBe(true);
    expect(hasPanelAccess({ role: "finance", email: "books@example.com" }, domain)).toBe(true);
    // A role the panel does not know (a hosted provider's metadata, say) gives nothing.
    expect(staffRoleOf({ isAdmin: false, role: "superuser" })).toBeNull();
  });
  it("lets viewers through the staff prefixes for reads only, every other role for any method, nobody else", () => {
    const viewer = { isAdmin: false, role: "viewer" };
    expect(staffPrefixAccess(viewer, "GET")).toBe("allowed");
    expect(staffPrefixAccess(viewer, "head")).toBe("allowed");
    for (const method of ["POST", "PUT", "PATCH", "DELETE", "OPTIONS"]) expect(staffPrefixAccess(viewer, method), method).toBe("read-only");
    for (const role of ["finance", "support"]) expect(staffPrefixAccess({ isAdmin: false, role }, "POST"), role).toBe("allowed");
    expect(staffPrefixAccess({ isAdmin: true, role: "user" }, "DELETE")).toBe("allowed");
    expect(staffPrefixAccess({ isAdmin: false, role: "user" }, "GET")).toBe("denied");
  });
});
