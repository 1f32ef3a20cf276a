import { describe, expect, it } from "vitest";
import { isAdminUser } from "./admin-rule.ts";

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
