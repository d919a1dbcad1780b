/**
 * Vite configuration of the demo (client build, and the base of the server build in adapters/).
 */
import { qwikVite } from "@builder.io/qwik/optimizer";
import { qwikCity } from "@builder.io/qwik-city/vite";
import { defineConfig } from "vite";

export default defineConfig({
  plugins: [qwikCity({ trailingSlash: false }), qwikVite()],
  server: {
    // The dev server listens where `npm start` does (PORT, default 3000): the development OpenID Provider
    // accepts the demo's callback URL on that port only.
    port: Number(process.env.PORT ?? 3000),
    strictPort: true,
    headers: { "Cache-Control": "public, max-age=0" },
  },
});
