import { defineConfig } from "vite";
import react from "@vitejs/plugin-react";
import tailwindcss from "@tailwindcss/vite";
import { fileURLToPath } from "node:url";
import { inertContractZod } from "./scripts/vite-inert-zod.ts";

const apiPort = process.env.PORT ?? "3000";

export default defineConfig({
  root: "src/web",
  publicDir: false,
  plugins: [inertContractZod(), react(), tailwindcss()],
  resolve: {
    alias: {
      "@contract": fileURLToPath(new URL("./src/contract", import.meta.url)),
      "@web": fileURLToPath(new URL("./src/web", import.meta.url)),
    },
  },
  build: {
    outDir: fileURLToPath(new URL("./dist/web", import.meta.url)),
    emptyOutDir: true,
    sourcemap: false,
    // dist/web/.vite/manifest.json: scripts/check-web-budget.ts reads the chunk graph from it.
    manifest: true,
  },
  server: {
    port: 5173,
    host: "127.0.0.1",
    proxy: { "/api": `http://127.0.0.1:${apiPort}` },
  },
});
