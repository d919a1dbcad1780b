// The server of the telemetry bench's HTTP phase (bench/telemetry.mjs): the bench's configuration behind
// `toNodeHandler` on node:http, 127.0.0.1, with an SDK registered as in the in-process phases, on three
// free ports, printed as `listening <on> <off> <minimum>`: telemetry on (the default), `telemetry: false`,
// and `telemetry: false` inside the least instrumentation (`minimalInstrumentation`: one span, one
// histogram record). One process serves all three, so they share its state and its share of the cores.
//   node bench/telemetry-server.mjs [sampled]
// `sampled`: 10 % of traces sampled (else every request).
import { createServer } from "node:http";
import { toNodeHandler } from "@authlib/core/node";
import { configOf, minimalInstrumentation, productionSampler, registerSdk } from "./telemetry.mjs";

const [sampling] = process.argv.slice(2);
if (sampling !== undefined && sampling !== "sampled") throw new Error("usage: node bench/telemetry-server.mjs [sampled]");
registerSdk(sampling === "sampled" ? productionSampler() : undefined);
const instrument = minimalInstrumentation();

/** A handler of `config` on a free port of its own; resolves with the server once it listens. */
async function listen(telemetry, wrap = (handler) => handler) {
  const server = createServer();
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  // The one host the bench calls, trusted by name (no warning about an unrestricted `trustHost`).
  const config = { ...configOf(telemetry), trustedHosts: [`127.0.0.1:${server.address().port}`] };
  server.on("request", wrap(toNodeHandler(config, { env: false })));
  return server;
}

/** `handler` inside the least instrumentation; the request ends when its answer is sent. */
const instrumented = (handler) => (req, res) => {
  void instrument(
    () =>
      new Promise((resolve) => {
        res.on("finish", () => resolve(res.statusCode));
        handler(req, res);
      }),
  );
};

const servers = [await listen(undefined), await listen(false), await listen(false, instrumented)];
console.log(`listening ${servers.map((server) => server.address().port).join(" ")}`);
process.on("SIGTERM", () => {
  for (const server of servers) server.close();
  process.exit(0);
});
