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
      publicUrl: "http://127.0.0.1:3000",
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
    expect(loadConfig({ NODE_ENV: "production", BETA_PASSWORD: "a-long-enough-secret", ADMIN_PASSWORD: "another-long-secret", PUBLIC_URL: "https://admin.example.com" }).production).toBe(true);
  });

  describe("PUBLIC_URL (issue 18 finding 5: the Host header must not decide links)", () => {
    const secrets = { BETA_PASSWORD: "a-long-enough-secret", ADMIN_PASSWORD: "another-long-secret" };

    it("is required in production, where the listening address is not the public one", () => {
      expect(() => loadConfig({ NODE_ENV: "production", ...secrets })).toThrow(ConfigError);
      expect(() => loadConfig({ NODE_ENV: "production", ...secrets })).toThrow(/^Invalid PUBLIC_URL: required when NODE_ENV=production/);
      expect(loadConfig({ NODE_ENV: "production", ...secrets, PUBLIC_URL: "https://admin.example.com/" }).publicUrl).toBe("https://admin.example.com");
    });

    it("defaults to http://HOST:PORT elsewhere (localhost for the unspecified addresses, brackets for IPv6)", () => {
      expect(loadConfig({ HOST: "10.0.0.5", PORT: "8080" }).publicUrl).toBe("http://10.0.0.5:8080");
      expect(loadConfig({ HOST: "0.0.0.0", PORT: "3000" }).publicUrl).toBe("http://localhost:3000");
      expect(loadConfig({ HOST: "::", PORT: "3000" }).publicUrl).toBe("http://localhost:3000");
      expect(loadConfig({ HOST: "::1", PORT: "3001" }).publicUrl).toBe("http://[::1]:3001");
      expect(loadConfig({ HOST: "admin.internal", PORT: "80" }).publicUrl).toBe("http://admin.internal");
    });

    it("keeps an http(s) origin, lower-cased, without a trailing slash", () => {
      expect(loadConfig({ PUBLIC_URL: "https://Admin.Example.com" }).publicUrl).toBe("https://admin.example.com");
      expect(loadConfig({ PUBLIC_URL: "https://admin.example.com:8443/" }).publicUrl).toBe("https://admin.example.com:8443");
      expect(loadConfig({ PUBLIC_URL: "http://127.0.0.1:4000" }).publicUrl).toBe("http://127.0.0.1:4000");
    });

    it.each([
      "admin.example.com",
      "ftp://admin.example.com",
      "javascript:alert(1)",
      "https://admin.example.com/panel",
      "https://admin.example.com/?x=1",
      "https://admin.example.com/#top",
      "https://user:secret@admin.example.com",
      "https://",
    ])("refuses %s with one line that does not repeat the value", (value) => {
      expect(() => loadConfig({ PUBLIC_URL: value })).toThrow(/^Invalid PUBLIC_URL: must be an http\(s\) origin/);
      try {
        loadConfig({ PUBLIC_URL: value });
      } catch (err) {
        expect((err as Error).message).not.toContain("secret");
      }
    });
  });

  it("treats empty variables as unset", () => {
    expect(loadConfig({ PORT: "", BETA_PASSWORD: "" })).toMatchObject({ port: 3000, betaPassword: undefined });
  });
});
