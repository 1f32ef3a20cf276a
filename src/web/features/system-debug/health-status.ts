import type { DebugResponse } from "@contract/system-debug";

export type HealthStatus = "healthy" | "warning" | "critical" | "unknown";

export type HealthProblem = "not_admin" | "auth_key_missing" | "payment_key_missing" | "payment_api_not_working";

/**
 * The problems of docs/product.md §8.2. "Authentication key missing" counts only when the configured provider
 * needs a server secret: the built-in provider has none to miss (docs/decisions). "Payment API not
 * working" is the live Stripe check; without a key no call can work, so it counts then too.
 */
export function healthProblems(data: Pick<DebugResponse, "isAdmin" | "authSecretKeyRequired" | "clerkSecretKeyExists" | "stripeSecretKeyExists" | "stripeWorks">): HealthProblem[] {
  const problems: HealthProblem[] = [];
  if (!data.isAdmin) problems.push("not_admin");
  if (data.authSecretKeyRequired && !data.clerkSecretKeyExists) problems.push("auth_key_missing");
  if (!data.stripeSecretKeyExists) problems.push("payment_key_missing");
  if (!data.stripeWorks) problems.push("payment_api_not_working");
  return problems;
}

/** docs/product.md §8.2: no problems healthy, 1 or 2 warning, 3 or more critical; unknown before data loads. */
export function healthStatus(data: Parameters<typeof healthProblems>[0] | undefined | null): HealthStatus {
  if (!data) return "unknown";
  const count = healthProblems(data).length;
  if (count === 0) return "healthy";
  return count <= 2 ? "warning" : "critical";
}

export const PROBLEM_TEXT: Record<HealthProblem, string> = {
  not_admin: "You are not an administrator",
  auth_key_missing: "Authentication provider secret key is missing",
  payment_key_missing: "Payment provider secret key is missing",
  payment_api_not_working: "Payment provider API is not working",
};
