import { defineConfig } from "vite";
import react from "@vitejs/plugin-react";
import tailwindcss from "@tailwindcss/vite";
import { fileURLToPath } from "node:url";
import { inertContractZod } from "./scripts/vite-inert-zod.ts";
import { chunkModules } from "./scripts/vite-chunk-modules.ts";

const apiPort = process.env.PORT ?? "3000";

export default defineConfig({
  root: "src/web",
  publicDir: false,
  plugins: [inertContractZod(), react(), tailwindcss(), chunkModules(fileURLToPath(new URL(".", import.meta.url)))],
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
    rollupOptions: {
      output: {
        // Clerk's UI imports react-dom's createRoot through a tiny module of its own, a dynamic
        // entry; left to itself Rollup hosts modules the panel's own screens share (react-dom's
        // interop, TanStack's infinite observer) in that chunk, and every screen of a deployment
        // on the built-in provider then downloads a Clerk module. Both get chunks of their own;
        // the first screen loads the same bytes (react-dom in its own file). The web budget
        // (scripts/check-web-budget.ts) fails the build if a Clerk module reaches such a chunk.
        manualChunks(id) {
          if (/\/node_modules\/@clerk\/ui\/dist\/(no-rhc\/)?lazyModules\/common\.js$/.test(id)) return "clerk-ui-common";
          if (/\/node_modules\/(react-dom|scheduler)\//.test(id)) return "react-dom";
          return undefined;
        },
      },
    },
  },
  server: {
    port: 5173,
    host: "127.0.0.1",
    proxy: { "/api": `http://127.0.0.1:${apiPort}` },
  },
});
