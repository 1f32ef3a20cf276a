import { defineConfig } from "vitest/config";
import react from "@vitejs/plugin-react";
import { fileURLToPath } from "node:url";

const alias = {
  "@contract": fileURLToPath(new URL("./src/contract", import.meta.url)),
  "@web": fileURLToPath(new URL("./src/web", import.meta.url)),
};

export default defineConfig({
  resolve: { alias },
  test: {
    projects: [
      {
        resolve: { alias },
        test: {
          name: "server",
          environment: "node",
          include: ["src/server/**/*.test.ts", "src/contract/**/*.test.ts", "scripts/**/*.test.ts", "bench/lib/**/*.test.ts"],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        plugins: [react()],
        resolve: { alias },
        test: {
          name: "web",
          environment: "jsdom",
          include: ["src/web/**/*.test.{ts,tsx}"],
          setupFiles: ["src/web/test/setup.ts"],
          // Screen tests type and click through whole flows (user-event): on a shared 2-core machine a
          // long flow took 5.1–5.4 s, just over vitest's 5 s default, while asserting nothing slow.
          testTimeout: 20_000,
        },
      },
    ],
  },
});
