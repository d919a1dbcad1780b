/** Server build of the demo: a plain Node HTTP server (src/entry.node-server.tsx). */
import { nodeServerAdapter } from "@builder.io/qwik-city/adapters/node-server/vite";
import { extendConfig } from "@builder.io/qwik-city/vite";
import baseConfig from "../../vite.config";

export default extendConfig(baseConfig, () => ({
  build: {
    ssr: true,
    // Readable server code: error names and stack traces in the demo's log stay meaningful.
    minify: false,
    rollupOptions: { input: ["src/entry.node-server.tsx", "@qwik-city-plan"] },
  },
  plugins: [nodeServerAdapter({ name: "node-server" })],
}));
