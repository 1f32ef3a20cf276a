import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "./config.ts";

/** 32 bytes in base64: a WEBHOOK_SECRETS_KEY production accepts. */
const WEBHOOK_KEY = "MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=";

/** The lines a start refused for `env` prints (ConfigError.problems), or [] when it starts. */
function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
    return [];
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    return err.problems;
  }
}

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
    expect(() => loadConfig({ NODE_ENV: "production", BETA_PASSWORD: "a-long-enough-secret", ADMIN_PASSWORD: "another-long-secret", PUBLIC_URL: "https://admin.example.com" })).toThrow(
      /^Invalid WEBHOOK_SECRETS_KEY: required when NODE_ENV=production/,
    );
    expect(
      loadConfig({ NODE_ENV: "production", BETA_PASSWORD: "a-long-enough-secret", ADMIN_PASSWORD: "another-long-secret", PUBLIC_URL: "https://admin.example.com", WEBHOOK_SECRETS_KEY: WEBHOOK_KEY })
        .production,
    ).toBe(true);
  });

  it("takes WEBHOOK_SECRETS_KEY as 32 bytes in hex or base64 and refuses anything else without repeating it", () => {
    expect(loadConfig({ WEBHOOK_SECRETS_KEY: WEBHOOK_KEY }).webhookSecretsKey).toBe(WEBHOOK_KEY);
    expect(loadConfig({ WEBHOOK_SECRETS_KEY: "ab".repeat(32) }).webhookSecretsKey).toBe("ab".repeat(32));
    expect(loadConfig({}).webhookSecretsKey).toBeUndefined();
    for (const bad of ["short-secret", "ab".repeat(31), Buffer.alloc(31).toString("base64")]) {
      expect(problemsOf({ WEBHOOK_SECRETS_KEY: bad })).toEqual([expect.stringMatching(/^Invalid WEBHOOK_SECRETS_KEY: must be 32 random bytes/)]);
      expect(problemsOf({ WEBHOOK_SECRETS_KEY: bad }).join("\n")).not.toContain(bad);
    }
    expect(
      loadConfig({
        NODE_ENV: "production",
        BETA_PASSWORD: "a-long-enough-secret",
        ADMIN_PASSWORD: "another-long-secret",
        PUBLIC_URL: "https://a.example",
        WEBHOOK_SECRETS_KEY: WEBHOOK_KEY,
        WEBHOOK_ALLOW_PRIVATE_URLS: "true",
      }).webhookAllowPrivateUrls,
    ).toBe(true);
  });

  describe("PUBLIC_URL (issue 18 finding 5: the Host header must not decide links)", () => {
    const secrets = { BETA_PASSWORD: "a-long-enough-secret", ADMIN_PASSWORD: "another-long-secret", WEBHOOK_SECRETS_KEY: WEBHOOK_KEY };

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

  it("reports every bad variable at once, one line each, in the message too", () => {
    const env = { PORT: "70000", DATABASE_URL: "mysql://x", SEED_DEMO: "maybe", METRICS_TOKEN: "short", TRUST_PROXY: "nonsense", PUBLIC_URL: "admin.example.com", NODE_ENV: "production" };
    const problems = problemsOf(env);
    expect(problems.map((line) => /^Invalid (\w+):/.exec(line)?.[1])).toEqual([
      "PORT",
      "DATABASE_URL",
      "SEED_DEMO",
      "METRICS_TOKEN",
      "BETA_PASSWORD",
      "ADMIN_PASSWORD",
      "WEBHOOK_SECRETS_KEY",
      "TRUST_PROXY",
      "PUBLIC_URL",
    ]);
    expect(() => loadConfig(env)).toThrow(problems.join("\n"));
  });

  it("names a variable once, by its first problem", () => {
    expect(problemsOf({ AUTH_PROVIDER: "clerk", CLERK_PUBLISHABLE_KEY: "pk_test_fake" })).toEqual([
      "Invalid AUTH_PROVIDER: clerk needs CLERK_SECRET_KEY and CLERK_PUBLISHABLE_KEY",
      expect.stringMatching(/^Invalid CLERK_AUTHORIZED_PARTIES: required/),
      expect.stringMatching(/^Invalid CLERK_ISSUER: required/),
    ]);
  });

  describe("PostgreSQL", () => {
    it("keeps DATABASE_POOL_MAX connections per process (10 unless set)", () => {
      expect(loadConfig({ DATABASE_URL: "postgres://u:p@db/hki" }).database).toEqual({ kind: "postgres", url: "postgres://u:p@db/hki", poolMax: 10 });
      expect(loadConfig({ DATABASE_URL: "postgres://u:p@db/hki", DATABASE_POOL_MAX: "4" }).database).toMatchObject({ poolMax: 4 });
      expect(problemsOf({ DATABASE_POOL_MAX: "0" })).toEqual([expect.stringMatching(/^Invalid DATABASE_POOL_MAX: /)]);
      expect(problemsOf({ DATABASE_POOL_MAX: "ten" })).toEqual([expect.stringMatching(/^Invalid DATABASE_POOL_MAX: /)]);
    });

    it("writes DATABASE_PASSWORD into the URL encoded, whatever characters it has", () => {
      const password = "p@ss/w:rd?#%&=é ";
      const { database } = loadConfig({ DATABASE_URL: "postgres://hki@db:5432/hki?sslmode=require", DATABASE_PASSWORD: password });
      const url = new URL(database.kind === "postgres" ? database.url : "");
      expect([url.username, decodeURIComponent(url.password), url.host, url.pathname, url.searchParams.get("sslmode")]).toEqual(["hki", password, "db:5432", "/hki", "require"]);
    });

    it.each([
      [{ DATABASE_URL: "postgres://hki:secret@db/hki", DATABASE_PASSWORD: "other" }, /^Invalid DATABASE_PASSWORD: DATABASE_URL has a password already/],
      [{ DATABASE_URL: "postgres://db/hki", DATABASE_PASSWORD: "other" }, /^Invalid DATABASE_URL: names no user/],
      [{ DATABASE_URL: "sqlite:./x.sqlite", DATABASE_PASSWORD: "other" }, /^Invalid DATABASE_PASSWORD: only for a postgres/],
      [{ DATABASE_URL: "postgres://hki:a/b@db/hki" }, /^Invalid DATABASE_URL: not a URL \(a password with @, \/ or : must be URL-encoded, or given as DATABASE_PASSWORD\)$/],
      [{ DATABASE_URL: "postgres://hki@db/hki?sslmode=requird" }, /^Invalid DATABASE_URL: sslmode must be one of disable, prefer, require, verify-ca, verify-full, no-verify$/],
    ])("refuses %o without repeating a password", (env, pattern) => {
      const problems = problemsOf(env);
      expect(problems).toEqual([expect.stringMatching(pattern)]);
      expect(problems.join()).not.toMatch(/secret|other|a\/b/);
    });
  });

  describe("NAME_FILE for secrets (Docker secrets)", () => {
    const dir = mkdtempSync(join(tmpdir(), "hki-config-"));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));
    const secret = (name: string, content: string) => {
      const path = join(dir, name);
      writeFileSync(path, content);
      return path;
    };

    it("reads each secret from the file named, without the final line break", () => {
      const config = loadConfig({
        NODE_ENV: "production",
        PUBLIC_URL: "https://admin.example.com",
        BETA_PASSWORD_FILE: secret("beta", "beta-password-from-file\n"),
        ADMIN_PASSWORD_FILE: secret("admin", "admin password ends in a space \r\n"),
        DATABASE_URL: "postgres://hki@db/hki",
        DATABASE_PASSWORD_FILE: secret("db", "p@ss/word\n"),
        STRIPE_SECRET_KEY_FILE: secret("stripe", "sk_test_from_file"),
        METRICS_TOKEN_FILE: secret("metrics", "a-metrics-token-of-length\n"),
        SMTP_URL_FILE: secret("smtp", "smtp://mailer:pw@mail.example.com:587\n"),
        WEBHOOK_SECRETS_KEY_FILE: secret("webhooks", `${WEBHOOK_KEY}\n`),
      });
      expect(config).toMatchObject({
        betaPassword: "beta-password-from-file",
        adminPassword: "admin password ends in a space ",
        stripeSecretKey: "sk_test_from_file",
        metricsToken: "a-metrics-token-of-length",
        smtpUrl: "smtp://mailer:pw@mail.example.com:587",
        webhookSecretsKey: WEBHOOK_KEY,
      });
      expect(config.database.kind === "postgres" && decodeURIComponent(new URL(config.database.url).password)).toBe("p@ss/word");
    });

    it("refuses a file that is missing, unreadable or empty, or one given beside the variable, naming the path and never the content", () => {
      const unreadable = secret("unreadable", "hidden-content");
      chmodSync(unreadable, 0o000);
      const readableAnyway = process.getuid?.() === 0; // root reads any file
      const problems = problemsOf({
        BETA_PASSWORD_FILE: join(dir, "missing"),
        ADMIN_PASSWORD: "set-here",
        ADMIN_PASSWORD_FILE: secret("admin-too", "and-here"),
        CLERK_SECRET_KEY_FILE: secret("empty", "\n"),
        STRIPE_SECRET_KEY_FILE: unreadable,
      });
      expect(problems).toEqual([
        `Invalid BETA_PASSWORD_FILE: cannot read ${join(dir, "missing")} (ENOENT)`,
        "Invalid ADMIN_PASSWORD_FILE: set ADMIN_PASSWORD or ADMIN_PASSWORD_FILE, not both",
        `Invalid CLERK_SECRET_KEY_FILE: ${join(dir, "empty")} is empty`,
        ...(readableAnyway ? [] : [`Invalid STRIPE_SECRET_KEY_FILE: cannot read ${unreadable} (EACCES)`]),
      ]);
      expect(problems.join()).not.toMatch(/set-here|and-here|hidden-content/);
    });

    it("is read only for secrets", () => {
      expect(loadConfig({ PORT_FILE: secret("port", "4000") }).port).toBe(3000);
    });
  });
});
