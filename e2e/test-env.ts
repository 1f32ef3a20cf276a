/** Fixed credentials of the throwaway e2e server (never real secrets). Shared by global-setup and the specs. */
export const E2E = {
  betaPassword: "e2e-beta-password",
  adminEmail: "admin@hki.global",
  adminPassword: "e2e-admin-password",
  userEmail: "user@example.com",
  userPassword: "e2e-user-password",
  storefrontUrl: "http://storefront.e2e.test",
} as const;
