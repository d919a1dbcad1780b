// One server of the telemetry bench's HTTP phase (bench/telemetry.mjs): the bench's configuration behind
// `toNodeHandler` on node:http, 127.0.0.1, the port in `PORT` (0: a free one, printed as `listening <port>`),
// with an SDK registered as in the in-process phases.
//   node bench/telemetry-server.mjs on|off [sampled]
// `on`: telemetry on (the default); `off`: `telemetry: false`; `sampled`: 10 % of traces sampled.
import { createServer } from "node:http";
import { toNodeHandler } from "@authlib/core/node";
import { configOf, productionSampler, registerSdk } from "./telemetry.mjs";

const [side, sampling] = process.argv.slice(2);
if (side !== "on" && side !== "off") throw new Error("usage: node bench/telemetry-server.mjs on|off [sampled]");
registerSdk(sampling === "sampled" ? productionSampler() : undefined);
const server = createServer();
server.listen(Number(process.env.PORT ?? 0), "127.0.0.1", () => {
  const { port } = server.address();
  // The one host the bench calls, trusted by name (no warning about an unrestricted `trustHost`).
  const config = { ...configOf(side === "on" ? undefined : false), trustedHosts: [`127.0.0.1:${port}`] };
  server.on("request", toNodeHandler(config, { env: false }));
  console.log(`listening ${port}`);
});
process.on("SIGTERM", () => server.close(() => process.exit(0)));
