/**
 * The benchmark server: Node's HTTP server in front of Qwik City's node middleware, on 127.0.0.1:PORT.
 * Prints "listening <port>" once it accepts connections (bench/http.mjs waits for that line).
 */
import { createServer } from "node:http";
import { createQwikCity } from "@builder.io/qwik-city/middleware/node";
import qwikCityPlan from "@qwik-city-plan";
import render from "./entry.ssr";

const { router, notFound, staticFile } = createQwikCity({ render, qwikCityPlan });

const server = createServer((req, res) => {
  staticFile(req, res, () => {
    router(req, res, () => {
      notFound(req, res, () => {});
    });
  });
});

server.listen(Number(process.env.PORT ?? 0), "127.0.0.1", () => {
  const address = server.address();
  console.log(`listening ${typeof address === "object" && address ? address.port : ""}`);
});
process.on("SIGTERM", () => process.exit(0));
