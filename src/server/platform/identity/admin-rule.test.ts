import { describe, expect, it } from "vitest";
import { adminRouteAccess, hasPanelAccess, isAdminUser, panelPermissions } from "./admin-rule.ts";

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

describe("viewers and panel access (docs/product.md §1.3)", () => {
  const domain = "hki.global";
  it("gives viewers panel access without write access; admins both; users neither", () => {
    expect(panelPermissions({ role: "viewer", email: "support@example.com" }, domain)).toEqual({ isAdmin: false, panelAccess: true, canWrite: false });
    expect(panelPermissions({ role: "admin", email: "boss@example.com" }, domain)).toEqual({ isAdmin: true, panelAccess: true, canWrite: true });
    // The domain rule wins over a stored viewer role.
    expect(panelPermissions({ role: "viewer", email: "ops@hki.global" }, domain)).toEqual({ isAdmin: true, panelAccess: true, canWrite: true });
    expect(panelPermissions({ role: "user", email: "artist@example.com" }, domain)).toEqual({ isAdmin: false, panelAccess: false, canWrite: false });
    expect(hasPanelAccess({ role: "viewer", email: "support@example.com" }, domain)).toBe(true);
  });
  it("lets viewers read (GET, HEAD) and nothing else on admin routes", () => {
    const viewer = { isAdmin: false, role: "viewer" };
    expect(adminRouteAccess(viewer, "GET")).toBe("allowed");
    expect(adminRouteAccess(viewer, "head")).toBe("allowed");
    for (const method of ["POST", "PUT", "PATCH", "DELETE", "OPTIONS"]) expect(adminRouteAccess(viewer, method), method).toBe("read-only");
    expect(adminRouteAccess({ isAdmin: true, role: "user" }, "DELETE")).toBe("allowed");
    expect(adminRouteAccess({ isAdmin: false, role: "user" }, "GET")).toBe("denied");
  });
});
