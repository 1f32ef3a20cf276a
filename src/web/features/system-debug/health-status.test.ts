import { describe, expect, it } from "vitest";
import { healthProblems, healthStatus } from "./health-status";

const allGood = { isAdmin: true, authSecretKeyRequired: true, clerkSecretKeyExists: true, stripeSecretKeyExists: true, stripeWorks: true };

describe("healthStatus", () => {
  it("is unknown before data", () => {
    expect(healthStatus(undefined)).toBe("unknown");
    expect(healthStatus(null)).toBe("unknown");
  });

  it("0 problems: healthy", () => {
    expect(healthProblems(allGood)).toEqual([]);
    expect(healthStatus(allGood)).toBe("healthy");
  });

  it("1 problem: warning", () => {
    const data = { ...allGood, stripeWorks: false };
    expect(healthProblems(data)).toEqual(["payment_api_not_working"]);
    expect(healthStatus(data)).toBe("warning");
  });

  it("2 problems: warning (no payment key, so no working payment API)", () => {
    const data = { ...allGood, stripeSecretKeyExists: false, stripeWorks: false };
    expect(healthProblems(data)).toEqual(["payment_key_missing", "payment_api_not_working"]);
    expect(healthStatus(data)).toBe("warning");
  });

  it("3 problems: critical", () => {
    const data = { ...allGood, clerkSecretKeyExists: false, stripeSecretKeyExists: false, stripeWorks: false };
    expect(healthProblems(data)).toHaveLength(3);
    expect(healthStatus(data)).toBe("critical");
  });

  it("4 problems: critical", () => {
    const data = { isAdmin: false, authSecretKeyRequired: true, clerkSecretKeyExists: false, stripeSecretKeyExists: false, stripeWorks: false };
    expect(healthProblems(data)).toEqual(["not_admin", "auth_key_missing", "payment_key_missing", "payment_api_not_working"]);
    expect(healthStatus(data)).toBe("critical");
  });

  it("a provider without a server secret (built-in) has no auth key to miss", () => {
    const data = { ...allGood, authSecretKeyRequired: false, clerkSecretKeyExists: false };
    expect(healthProblems(data)).toEqual([]);
    expect(healthStatus(data)).toBe("healthy");
  });
});
