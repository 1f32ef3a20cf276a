import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "./config.ts";

describe("loadConfig", () => {
  it("gives the documented defaults", () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      host: "127.0.0.1",
      database: { kind: "sqlite", path: "./data/admin.sqlite" },
      adminEmail: "admin@hki.global",
      adminEmailDomain: "hki.global",
      storefrontUrl: "http://localhost:5174",
      seedDemo: true,
      authProvider: "local",
      production: false,
    });
  });

  it("does not seed demo data on PostgreSQL unless asked", () => {
    expect(loadConfig({ DATABASE_URL: "postgres://u:p@localhost/db" }).seedDemo).toBe(false);
    expect(loadConfig({ DATABASE_URL: "postgres://u:p@localhost/db", SEED_DEMO: "true" }).seedDemo).toBe(true);
  });

  it.each([
    [{ PORT: "not-a-port" }, /PORT/],
    [{ PORT: "70000" }, /PORT/],
    [{ DATABASE_URL: "mysql://x" }, /DATABASE_URL/],
    [{ STOREFRONT_URL: "not a url" }, /STOREFRONT_URL/],
    [{ SEED_DEMO: "maybe" }, /SEED_DEMO/],
    [{ ADMIN_EMAIL_DOMAIN: "https://hki.global" }, /ADMIN_EMAIL_DOMAIN/],
    [{ AUTH_PROVIDER: "clerk" }, /CLERK_SECRET_KEY/],
  ])("rejects %o with one line naming the variable", (env, pattern) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(pattern);
  });

  it("refuses missing or weak secrets in production instead of generating them", () => {
    expect(() => loadConfig({ NODE_ENV: "production" })).toThrow(/BETA_PASSWORD/);
    expect(() => loadConfig({ NODE_ENV: "production", BETA_PASSWORD: "short", ADMIN_PASSWORD: "a-long-enough-secret" })).toThrow(/BETA_PASSWORD/);
    expect(() => loadConfig({ NODE_ENV: "production", BETA_PASSWORD: "a-long-enough-secret" })).toThrow(/ADMIN_PASSWORD/);
    expect(loadConfig({ NODE_ENV: "production", BETA_PASSWORD: "a-long-enough-secret", ADMIN_PASSWORD: "another-long-secret" }).production).toBe(true);
  });

  it("treats empty variables as unset", () => {
    expect(loadConfig({ PORT: "", BETA_PASSWORD: "" })).toMatchObject({ port: 3000, betaPassword: undefined });
  });
});
