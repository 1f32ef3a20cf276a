import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { register } from "prom-client";
import "./metrics.ts";

/** docs/operations.md "Monitoring" gives every metric the server exports a line, and a suggested alert where one helps. */
describe("the operations guide", () => {
  it("documents every metric of the registry", async () => {
    const guide = readFileSync(new URL("../../../../docs/operations.md", import.meta.url), "utf8");
    const monitoring = guide.slice(guide.indexOf("## Monitoring"), guide.indexOf("## Security checklist"));
    const names = (await register.getMetricsAsJSON()).map((metric) => metric.name);
    expect(names).toContain("hki_http_request_duration_seconds");
    const own = names.filter((name) => !/^hki_(process|nodejs)_/.test(name));
    expect(own.filter((name) => !monitoring.includes(`\`${name}\``))).toEqual([]);
    // prom-client's process and Node.js figures are covered as families.
    expect(monitoring).toContain("`hki_process_*`, `hki_nodejs_*`");
  });
});
