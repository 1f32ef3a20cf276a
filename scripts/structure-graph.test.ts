import { describe, expect, it } from "vitest";
import { moduleOf, stronglyConnected } from "./structure-graph.ts";

describe("structure graph", () => {
  it("names modules by layer and area", () => {
    expect(moduleOf("src/server/platform/db/connect.ts")).toBe("platform/db");
    expect(moduleOf("src/server/platform/clock.ts")).toBe("platform/clock");
    expect(moduleOf("src/server/features/vendors/vendors.service.ts")).toBe("features/vendors");
    expect(moduleOf("src/server/domain/ledger/orders.ts")).toBe("domain/ledger");
    expect(moduleOf("src/server/app.ts")).toBe("app");
    expect(moduleOf("src/server/demo-data/demo.ts")).toBe("demo-data");
  });

  it("finds a cycle between modules and nothing in a one-way graph", () => {
    const oneWay = new Map([
      ["features/a", new Set(["domain/ledger"])],
      ["domain/ledger", new Set(["platform/db"])],
    ]);
    expect(stronglyConnected(oneWay)).toEqual([]);
    const knot = new Map([
      ["platform/db", new Set(["platform/http"])],
      ["platform/http", new Set(["platform/jobs"])],
      ["platform/jobs", new Set(["platform/db"])],
      ["features/a", new Set(["platform/db"])],
    ]);
    expect(stronglyConnected(knot)).toEqual([["platform/db", "platform/http", "platform/jobs"]]);
  });
});
