/** Fixed credentials of the throwaway e2e server (never real secrets). Shared by global-setup and the specs. */
export const E2E = {
  betaPassword: "e2e-beta-password",
  adminEmail: "admin@hki.global",
  adminPassword: "e2e-admin-password",
  userEmail: "user@example.com",
  userPassword: "e2e-user-password",
  storefrontUrl: "http://storefront.e2e.test",
} as const;

/** A refund reason carrying this gets a lost answer from the e2e's fake Stripe (global-setup): made, answered 500, list down once. */
export const E2E_LOST_REFUND_ANSWER = "[e2e: answer lost]";
