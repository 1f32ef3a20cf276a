import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { CONFIG_VARIABLES, loadConfig } from "../platform/config/config.ts";
import { SERVER_BUNDLE } from "../testing/server-command.ts";

/**
 * Deployment (issue 15): what the Dockerfile copies and runs exists, its environment is one the
 * server accepts, and — with RUN_DEPLOY_TEST=1, as it is heavy (a full install and build in a
 * temporary copy) — `npm ci --omit=dev` followed by `npm start` serves on a built tree, without
 * any dev dependency. There is no Docker engine here: the image itself is not built.
 */
const ROOT = fileURLToPath(new URL("../../..", import.meta.url));
const read = (path: string) => readFileSync(join(ROOT, path), "utf8");
/** What an operator adds in production: the secrets and the panel's public address. */
const PRODUCTION_SECRETS = {
  BETA_PASSWORD: "a-long-beta-password",
  ADMIN_PASSWORD: "a-long-admin-password",
  PUBLIC_URL: "https://admin.example.com",
  WEBHOOK_SECRETS_KEY: "MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=",
};

interface Stage {
  from: string;
  name: string | undefined;
  lines: string[];
}

function dockerStages(): Stage[] {
  // Continuation lines joined, comments dropped.
  const text = read("Dockerfile").replace(/\\\n\s*/g, " ");
  const stages: Stage[] = [];
  for (const line of text.split("\n").map((l) => l.trim())) {
    if (line === "" || line.startsWith("#")) continue;
    const from = /^FROM\s+(\S+)(?:\s+AS\s+(\S+))?/i.exec(line);
    if (from) stages.push({ from: from[1]!, name: from[2], lines: [] });
    else stages.at(-1)?.lines.push(line);
  }
  return stages;
}

/** ENV lines of a stage as key/value pairs (the `ENV A=1 B=2` form). */
function envOf(stage: Stage): Record<string, string> {
  const env: Record<string, string> = {};
  for (const line of stage.lines.filter((l) => /^ENV\s/i.test(l))) {
    for (const [, key, value] of line.slice(4).matchAll(/(\w+)=("[^"]*"|\S+)/g)) env[key!] = value!.replace(/^"|"$/g, "");
  }
  return env;
}

describe("the Dockerfile and compose file", () => {
  const stages = dockerStages();
  const [build, runtime] = [stages[0]!, stages.at(-1)!];

  it("is multi-stage on the official image of the Node LTS line CI tests on, runs as a non-root user with a data volume and a readiness check", () => {
    expect(stages.length).toBeGreaterThanOrEqual(2);
    // The image follows the current LTS line, the one .ci/run runs the unit and API tests on.
    const ltsMajor = /^LTS_MAJOR=(\d+)$/m.exec(readFileSync(join(ROOT, ".ci/run"), "utf8"))?.[1];
    expect(ltsMajor).toBeDefined();
    for (const stage of stages) expect(stage.from).toMatch(new RegExp(`^node:${ltsMajor}(?:[-.][\\w.-]+)?$`));
    const users = runtime.lines.filter((l) => /^USER\s/i.test(l)).map((l) => l.split(/\s+/)[1]);
    expect(users.at(-1)).toBe("node");
    expect(runtime.lines.some((l) => /^VOLUME\s.*\/data/.test(l))).toBe(true);
    const healthcheck = runtime.lines.find((l) => /^HEALTHCHECK\s/i.test(l));
    expect(healthcheck).toContain("/api/ready");
    expect(runtime.lines.find((l) => /^CMD\s/i.test(l))).toContain(SERVER_BUNDLE);
  });

  it("copies only what exists: the repository's files into the build, and the build's outputs into the runtime", () => {
    for (const line of build.lines.filter((l) => /^COPY\s/i.test(l) && !l.includes("--from"))) {
      const sources = line
        .split(/\s+/)
        .slice(1, -1)
        .filter((p) => !p.startsWith("--"));
      for (const source of sources) expect(existsSync(join(ROOT, source)), source).toBe(true);
    }
    expect(build.lines).toContain("RUN npm ci");
    expect(build.lines.some((l) => l.includes("npm run build") && l.includes("npm prune --omit=dev"))).toBe(true);
    // What `npm run build` makes: the web app (vite) and the server bundle (scripts/build-server.ts).
    const scripts = (JSON.parse(read("package.json")) as { scripts: Record<string, string> }).scripts;
    expect(scripts.build).toMatch(/vite build/);
    expect(scripts.build).toMatch(/scripts\/build-server\.ts/);
    expect(read("vite.config.ts")).toMatch(/outDir:.*["']\.\/dist\/web["']/);
    const made = new Set(["/app/dist", "/app/node_modules", "/app/package.json", "/app/package-lock.json"]);
    for (const line of runtime.lines.filter((l) => /^COPY\s+--from=/i.test(l))) {
      expect(line).toMatch(new RegExp(`--from=${build.name}\\b`));
      const sources = line
        .split(/\s+/)
        .slice(1, -1)
        .filter((p) => !p.startsWith("--"));
      for (const source of sources) expect(made.has(source), source).toBe(true);
    }
    const ignored = read(".dockerignore")
      .split("\n")
      .map((l) => l.trim());
    for (const path of ["node_modules", "dist", "data", ".git", ".env"]) expect(ignored).toContain(path);
  });

  it("sets an environment the server accepts in production (with the secrets an operator adds)", () => {
    const env = envOf(runtime);
    expect(env).toMatchObject({ NODE_ENV: "production", HOST: "0.0.0.0", DATABASE_URL: "sqlite:/data/admin.sqlite" });
    const config = loadConfig({ ...env, ...PRODUCTION_SECRETS });
    expect(config.production).toBe(true);
    expect(config.database).toEqual({ kind: "sqlite", path: "/data/admin.sqlite" });
    expect(config.seedDemo).toBe(false);
    // Without the secrets it refuses to start, as production must.
    expect(() => loadConfig(env)).toThrow(/BETA_PASSWORD/);
  });
});

/**
 * compose.yaml parsed as Compose reads it (YAML merge keys, `${VAR:?message}`, `${VAR:-default}`,
 * `$$`), as there is no Compose here to run `docker compose config`.
 */
type ComposeService = {
  image?: string;
  build?: string;
  command?: string[];
  environment?: Record<string, string>;
  depends_on?: Record<string, { condition: string }>;
  ports?: string[];
  expose?: string[];
  volumes?: string[];
  profiles?: string[];
  restart?: string;
};
type ComposeFile = { services: Record<string, ComposeService>; volumes: Record<string, unknown> };

/** Compose's interpolation of one value: a missing required variable is an error naming it. */
function interpolate(value: string, env: Record<string, string>): string {
  return value.replace(/\$\$|\$\{(\w+)(?::([?-])([^}]*))?\}/g, (whole, name: string | undefined, kind: string | undefined, rest: string | undefined) => {
    if (whole === "$$") return "$";
    const set = env[name!] !== undefined && env[name!] !== "";
    if (kind === "?" && !set) throw new Error(`required variable ${name} is missing a value: ${rest}`);
    if (kind === "-" && !set) return rest!;
    return env[name!] ?? "";
  });
}

function composeFile(): ComposeFile {
  return parseYaml(read("compose.yaml"), { merge: true }) as ComposeFile;
}

/** A service's environment as the container gets it, for the operator's variables `env`. */
function serviceEnvironment(service: ComposeService, env: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(service.environment ?? {}).map(([key, value]) => [key, interpolate(String(value), env)]));
}

describe("compose.yaml (a real host: PostgreSQL, db:migrate before the panel, Caddy terminating TLS)", () => {
  const operator = {
    PUBLIC_URL: "https://admin.example.com",
    // Every character that breaks a URL's userinfo.
    POSTGRES_PASSWORD: "p@ss/w:rd?#%&= é",
    BETA_PASSWORD: "a-long-beta-password",
    ADMIN_PASSWORD: "a-long-admin-password",
    WEBHOOK_SECRETS_KEY: "MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=",
  };

  it("runs PostgreSQL, then the migrations to completion, then the panel, then Caddy", () => {
    const { services } = composeFile();
    expect(Object.keys(services).sort()).toEqual(["admin", "backup", "caddy", "db", "migrate"]);
    expect(services.db!.image).toMatch(/^postgres:\d+$/);
    expect(services.migrate!.command).toEqual(["node", SERVER_BUNDLE, "db:migrate"]);
    expect(services.migrate!.restart).toBe("no");
    expect(services.migrate!.depends_on).toEqual({ db: { condition: "service_healthy" } });
    expect(services.admin!.depends_on).toEqual({ db: { condition: "service_healthy" }, migrate: { condition: "service_completed_successfully" } });
    expect(services.caddy!.depends_on).toEqual({ admin: { condition: "service_healthy" } });
    // The panel and its migrations are the one image built from this repository.
    for (const name of ["migrate", "admin"]) expect([services[name]!.build, services[name]!.image]).toEqual([".", "hki-admin"]);
  });

  it("gives the panel an environment it accepts in production, the password with any characters, the client address from Caddy", () => {
    const { services } = composeFile();
    const env = serviceEnvironment(services.admin!, operator);
    expect(serviceEnvironment(services.migrate!, operator)).toEqual(env);
    for (const name of Object.keys(env)) expect(CONFIG_VARIABLES).toContain(name);
    const config = loadConfig(env);
    expect(config).toMatchObject({ production: true, publicUrl: "https://admin.example.com", trustProxy: { kind: "hops", hops: 1 }, seedDemo: false });
    expect(config.database.kind).toBe("postgres");
    const url = new URL(config.database.kind === "postgres" ? config.database.url : "");
    expect([url.username, decodeURIComponent(url.password), url.host, url.pathname]).toEqual(["hki", operator.POSTGRES_PASSWORD, "db:5432", "/hki"]);
    expect(serviceEnvironment(services.db!, operator).POSTGRES_PASSWORD).toBe(operator.POSTGRES_PASSWORD);
  });

  it.each(["PUBLIC_URL", "POSTGRES_PASSWORD", "BETA_PASSWORD", "ADMIN_PASSWORD", "WEBHOOK_SECRETS_KEY"])("refuses to start without %s (compose names it)", (name) => {
    const { services } = composeFile();
    const env = { ...operator, [name]: "" };
    expect(() => serviceEnvironment(services.admin!, env)).toThrow(`required variable ${name} is missing a value: set ${name}`);
  });

  it("publishes only Caddy, which serves PUBLIC_URL over HTTPS and forwards to the panel", () => {
    const { services } = composeFile();
    expect(services.caddy!.image).toMatch(/^caddy:\d+$/);
    expect(services.caddy!.ports).toEqual(["80:80", "443:443", "443:443/udp"]);
    expect(services.caddy!.command!.map((part) => interpolate(part, operator))).toEqual(["caddy", "reverse-proxy", "--from", "https://admin.example.com", "--to", "admin:3000"]);
    expect(() => interpolate(services.caddy!.command!.join(" "), { ...operator, PUBLIC_URL: "" })).toThrow(/PUBLIC_URL/);
    for (const name of ["db", "migrate", "admin", "backup"]) expect(services[name]!.ports).toBeUndefined();
  });

  it("keeps the data, the backups and Caddy's certificates on volumes, and backs up with PostgreSQL's own pg_dump", () => {
    const { services, volumes } = composeFile();
    expect(services.admin!.volumes).toEqual(["appdata:/data", "backups:/backups"]);
    expect(services.caddy!.volumes).toEqual(["caddy_data:/data", "caddy_config:/config"]);
    const used = Object.values(services).flatMap((service) => (service.volumes ?? []).map((volume) => volume.split(":")[0]!));
    expect(Object.keys(volumes).sort()).toEqual([...new Set(used)].sort());
    const backup = services.backup!;
    expect(backup.profiles).toEqual(["backup"]);
    expect(backup.image).toBe(services.db!.image);
    expect(backup.volumes).toEqual(["backups:/backups"]);
    expect(serviceEnvironment(backup, operator)).toEqual({ PGHOST: "db", PGUSER: "hki", PGDATABASE: "hki", PGPASSWORD: operator.POSTGRES_PASSWORD });
    expect(interpolate(backup.command!.join(" "), operator)).toMatch(/pg_dump --format=custom --file=\/backups\/hki-\$\(date \+%Y%m%d-%H%M%S\)\.dump/);
  });
});

/** Runs a command in `cwd`, failing with its output. */
function run(cwd: string, command: string, args: string[], env: Record<string, string> = {}): void {
  execFileSync(command, args, { cwd, stdio: "pipe", env: { ...process.env, ...env }, maxBuffer: 64 * 1024 * 1024, timeout: 15 * 60_000 });
}

/** Starts a server command in its own process group and waits for its "listening on" line. */
async function startAndWait(cwd: string, command: string, args: string[], env: Record<string, string>): Promise<{ url: string; child: ChildProcess; output: () => string }> {
  const child = spawn(command, args, { cwd, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"], detached: true });
  let out = "";
  child.stdout!.on("data", (d: Buffer) => (out += d.toString()));
  child.stderr!.on("data", (d: Buffer) => (out += d.toString()));
  const deadline = Date.now() + 120_000;
  for (;;) {
    const match = /listening on (http:\/\/[\d.]+:\d+)/.exec(out);
    if (match) return { url: match[1]!, child, output: () => out };
    if (child.exitCode !== null || Date.now() > deadline) {
      stopGroup(child);
      throw new Error(`${command} ${args.join(" ")} did not start:\n${out}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function stopGroup(child: ChildProcess): void {
  if (child.pid && child.exitCode === null) {
    try {
      process.kill(-child.pid, "SIGTERM");
    } catch {
      /* already gone */
    }
  }
}

const productionEnv = (dataDir: string): Record<string, string> => ({
  NODE_ENV: "production",
  PORT: "0",
  HOST: "127.0.0.1",
  DATABASE_URL: `sqlite:${join(dataDir, "admin.sqlite")}`,
  MAIL_DIR: join(dataDir, "mail"),
  SEED_DEMO: "false",
  LOG_LEVEL: "warn",
  ...PRODUCTION_SECRETS,
});

describe.skipIf(process.env.RUN_DEPLOY_TEST !== "1")("a production install (RUN_DEPLOY_TEST=1)", () => {
  it(
    "npm ci --omit=dev, then npm start, serves a built tree without dev tools; so does the image's command on dist and node_modules alone",
    async () => {
      const work = mkdtempSync(join(tmpdir(), "hki-deploy-"));
      const tree = join(work, "tree");
      const children: ChildProcess[] = [];
      try {
        // The repository as committed plus new files, without what git ignores (node_modules, dist, data).
        const files = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], { cwd: ROOT }).toString().split("\0").filter(Boolean);
        for (const file of files) {
          if (!existsSync(join(ROOT, file))) continue;
          mkdirSync(dirname(join(tree, file)), { recursive: true });
          cpSync(join(ROOT, file), join(tree, file), { preserveTimestamps: true });
        }
        const npmFlags = ["--no-audit", "--no-fund", "--prefer-offline"];
        // Build as the image's first stage does…
        run(tree, "npm", ["ci", ...npmFlags]);
        run(tree, "npm", ["run", "build"]);
        expect(existsSync(join(tree, SERVER_BUNDLE))).toBe(true);
        expect(existsSync(join(tree, "dist/web/index.html"))).toBe(true);
        // …then a production install on the built tree: no build tools at all.
        rmSync(join(tree, "node_modules"), { recursive: true, force: true });
        run(tree, "npm", ["ci", "--omit=dev", ...npmFlags]);
        // (esbuild stays: tsx, a dependency that `npm start` runs, needs it.)
        for (const devTool of ["vite", "vitest", "typescript", "eslint", "@playwright/test"]) expect(existsSync(join(tree, "node_modules", devTool)), devTool).toBe(false);

        const started = await startAndWait(tree, "npm", ["start"], productionEnv(join(work, "data-start")));
        children.push(started.child);
        expect((await fetch(`${started.url}/api/ready`)).status).toBe(200);
        expect((await fetch(`${started.url}/api/health`)).status).toBe(200);
        const page = await fetch(`${started.url}/`);
        expect(page.status).toBe(200);
        expect(await page.text()).toContain('<div id="root"');
        expect(started.output()).not.toMatch(/Building the/);
        stopGroup(started.child);

        // The image's runtime stage: package files, dist and node_modules only, run with plain node.
        const runtime = join(work, "runtime");
        mkdirSync(runtime);
        for (const entry of ["package.json", "package-lock.json", "dist"]) cpSync(join(tree, entry), join(runtime, entry), { recursive: true });
        renameSync(join(tree, "node_modules"), join(runtime, "node_modules"));
        const image = await startAndWait(runtime, process.execPath, [SERVER_BUNDLE], productionEnv(join(work, "data-image")));
        children.push(image.child);
        const ready = await fetch(`${image.url}/api/ready`);
        expect(ready.status).toBe(200);
        expect(await ready.json()).toMatchObject({ status: "ready", database: "sqlite" });
        expect((await fetch(`${image.url}/`)).status).toBe(200);
      } finally {
        for (const child of children) stopGroup(child);
        rmSync(work, { recursive: true, force: true });
      }
    },
    30 * 60_000,
  );
});
