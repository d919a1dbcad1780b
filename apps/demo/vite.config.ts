/**
 * Vite configuration of the demo (client build, and the base of the server build in adapters/).
 */
import { qwikVite } from "@builder.io/qwik/optimizer";
import { qwikCity } from "@builder.io/qwik-city/vite";
import { defineConfig } from "vite";

export default defineConfig({
  plugins: [qwikCity({ trailingSlash: false }), qwikVite()],
  server: { headers: { "Cache-Control": "public, max-age=0" } },
});
