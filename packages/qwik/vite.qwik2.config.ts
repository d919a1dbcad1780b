/** The Qwik 2 build of @authlib/qwik (`lib/qwik2/`): the same sources, see vite.config.ts. */
import { defineConfig } from "vite";
import { libraryConfig } from "./vite.config.js";

export default defineConfig(libraryConfig(2));
