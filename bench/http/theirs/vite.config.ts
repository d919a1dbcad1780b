/** Client build of the benchmark app using the reference (@auth/qwik). */
import { qwikVite } from "@builder.io/qwik/optimizer";
import { qwikCity } from "@builder.io/qwik-city/vite";
import { defineConfig } from "vite";

export default defineConfig({
  root: import.meta.dirname,
  plugins: [qwikCity({ trailingSlash: true }), qwikVite()],
  logLevel: "warn",
});
