import { defineConfig } from "vite";
import react from "@vitejs/plugin-react";
import tailwindcss from "@tailwindcss/vite";
import { fileURLToPath } from "node:url";
import { inertContractZod } from "./scripts/vite-inert-zod.ts";
import { chunkModules } from "./scripts/vite-chunk-modules.ts";
import { leanContract } from "./scripts/vite-lean-contract.ts";

const apiPort = process.env.PORT ?? "3000";

export default defineConfig({
  root: "src/web",
  // src/web/public: files served as they are, at the root (theme-init.js, loaded before the first paint).
  publicDir: "public",
  plugins: [inertContractZod(), leanContract(), react(), tailwindcss(), chunkModules(fileURLToPath(new URL(".", import.meta.url)))],
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
    // Every browser the panel supports preloads modules itself: no polyfill in the first screen's JS.
    modulePreload: { polyfill: false },
    rollupOptions: {
      output: {
        // Rollup folds a chunk of (next to) no code into another chunk "loaded under similar
        // conditions". Clerk's UI has such a chunk (a lazy module re-exporting react-dom's
        // createRoot), and it was folded into a chunk every screen of the panel loads: then a
        // deployment on the built-in provider downloaded a Clerk module. No folding at all; the web
        // budget (scripts/check-web-budget.ts) fails the build if a Clerk module reaches such a chunk.
        experimentalMinChunkSize: 0,
      },
    },
  },
  server: {
    port: 5173,
    host: "127.0.0.1",
    proxy: { "/api": `http://127.0.0.1:${apiPort}` },
  },
});
