import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { SERVER_BUNDLE, SERVER_NODE_OPTIONS, serverCommand } from "./server-command.ts";

const root = new URL("../../../", import.meta.url);

/** `npm start` and the container cannot import SERVER_NODE_OPTIONS: they must spell the same options. */
describe("the server's node options", () => {
  it("are the same in npm start, the Dockerfile and every started server", () => {
    const start = (JSON.parse(readFileSync(new URL("package.json", root), "utf8")) as { scripts: Record<string, string> }).scripts.start!;
    expect(start).toContain(`node ${SERVER_NODE_OPTIONS.join(" ")} ${SERVER_BUNDLE}`);
    const dockerCommand = /^CMD (\[.*\])$/m.exec(readFileSync(new URL("Dockerfile", root), "utf8"))?.[1];
    expect(JSON.parse(dockerCommand ?? "[]")).toEqual(["node", ...SERVER_NODE_OPTIONS, SERVER_BUNDLE]);
    expect(serverCommand("build").slice(1)).toEqual([...SERVER_NODE_OPTIONS, SERVER_BUNDLE]);
    expect(serverCommand("source").slice(1, 1 + SERVER_NODE_OPTIONS.length)).toEqual([...SERVER_NODE_OPTIONS]);
  });
});
