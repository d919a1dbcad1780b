/**
 * Builds @authlib/qwik the way Qwik libraries are built: vite library mode with the Qwik optimizer, so the
 * `$` functions of `FrameworkAuth$` stay as inlined QRLs that the app's own optimizer splits into segments.
 */
import { qwikVite } from "@builder.io/qwik/optimizer";
import { defineConfig } from "vite";

export default defineConfig({
  build: {
    target: "es2022",
    outDir: "lib",
    minify: false,
    lib: {
      // `vite` is the Vite plugin (plain code, loaded by Node from the app's vite.config.ts).
      entry: { index: "./src/index.ts", vite: "./src/vite.ts" },
      formats: ["es"],
      fileName: (_format, entryName) => `${entryName}.qwik.mjs`,
    },
    rollupOptions: {
      // Everything the app already has stays an import, so the app resolves one copy of each.
      external: [/^node:/, /^@builder\.io\/qwik/, /^@authlib\/core/],
      output: { preserveModules: true, preserveModulesRoot: "src" },
    },
  },
  plugins: [qwikVite()],
});
