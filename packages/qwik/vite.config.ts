/**
 * Builds @authlib/qwik the way Qwik libraries are built: vite library mode with the Qwik optimizer, so the
 * `$` functions of `FrameworkAuth$` stay as inlined QRLs that the app's own optimizer splits into segments.
 *
 * Two builds of the same sources: this file for Qwik 1 (`lib/`, importing `@builder.io/*`), then
 * `vite.qwik2.config.ts` for Qwik 2 (`lib/qwik2/`, the entry `@authlib/qwik/qwik2`), where only the
 * module names differ (`scripts/qwik2.mjs`): the APIs this package uses are the same in both majors.
 */
import { qwikVite } from "@builder.io/qwik/optimizer";
import { defineConfig, type UserConfig } from "vite";
import { qwik2Specifier } from "./scripts/qwik2.mjs";

/** The library build for one Qwik major (run with `--mode lib`, which puts the Qwik plugin in library mode). */
export function libraryConfig(qwikMajor: 1 | 2): UserConfig {
  const qwik2 = qwikMajor === 2;
  return {
    build: {
      target: "es2022",
      outDir: qwik2 ? "lib/qwik2" : "lib",
      // The Qwik 1 build runs first and empties lib/; the Qwik 2 build then adds lib/qwik2/.
      emptyOutDir: !qwik2,
      minify: false,
      lib: {
        // `vite` is the Vite plugin (plain code, loaded by Node from the app's vite.config.ts), one for both majors.
        entry: qwik2 ? { index: "./src/index.ts" } : { index: "./src/index.ts", vite: "./src/vite.ts" },
        formats: ["es"],
        fileName: (_format, entryName) => `${entryName}.qwik.mjs`,
      },
      rollupOptions: {
        // Everything the app already has stays an import, so the app resolves one copy of each.
        external: [/^node:/, /^@builder\.io\/qwik/, /^@authlib\/core/],
        output: { preserveModules: true, preserveModulesRoot: "src", ...(qwik2 && { paths: qwik2Specifier }) },
      },
    },
    plugins: [qwikVite()],
  };
}

export default defineConfig(libraryConfig(1));
