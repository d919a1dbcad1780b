/**
 * The fixture Qwik City app (test/fixture): built with the real optimizer and served through Qwik City's
 * real Node middleware, so the tests see what an app sees.
 */
import { once } from "node:events";
import { rmSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { qwikVite } from "@builder.io/qwik/optimizer";
import { qwikCity } from "@builder.io/qwik-city/vite";
import { build } from "vite";

type Middleware = (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => void;

/** The running fixture: its origin, its session-read counter, and how to stop it. */
export interface FixtureApp {
  origin: string;
  sessionReads: { count: number };
  /** How many times a provider factory of the configuration ran. */
  providerFactoryCalls: { count: number };
  /** Puts the fixture adapter's linked accounts back as they were seeded. */
  resetAccounts(): void;
  /** The mails the fixture's `Password()` sent; `refuse` makes sending fail. */
  mailbox: { mails: { to: string; subject: string; text: string }[]; refuse: boolean };
  close(): Promise<void>;
}

const root = fileURLToPath(new URL("./fixture", import.meta.url));
// Inside the package, so the built server resolves its dependencies from the workspace; one directory
// per process, so that test runs side by side do not overwrite each other's build.
const outDir = join(root, ".out", String(process.pid));
const clientOutDir = join(outDir, "dist");
const serverOutDir = join(outDir, "server");

/**
 * Builds the fixture like an app: the client build first (its manifest tells the server how to refer to
 * the event handlers of the rendered HTML), then the server bundle.
 */
function plugins() {
  return [qwikCity({ trailingSlash: false }), qwikVite({ client: { outDir: clientOutDir }, ssr: { outDir: serverOutDir } })];
}

export async function buildFixture(): Promise<string> {
  await build({ root, configFile: false, logLevel: "warn", plugins: plugins(), build: { outDir: clientOutDir, minify: false } });
  await build({
    root,
    configFile: false,
    logLevel: "warn",
    plugins: plugins(),
    build: {
      ssr: true,
      outDir: serverOutDir,
      minify: false,
      rollupOptions: { input: [join(root, "src/entry.fixture.ts"), "@qwik-city-plan"] },
    },
  });
  return join(serverOutDir, "entry.fixture.js");
}

/** Builds the fixture and serves it on 127.0.0.1 on a free port. */
export async function startFixture(): Promise<FixtureApp> {
  const entry = await buildFixture();
  const app = (await import(pathToFileURL(entry).href)) as {
    router: Middleware;
    notFound: Middleware;
    sessionReads: { count: number };
    providerFactoryCalls: { count: number };
    resetAccounts(): void;
    mailbox: FixtureApp["mailbox"];
  };
  const server: Server = createServer((req, res) => {
    app.router(req, res, () => app.notFound(req, res, () => {}));
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    sessionReads: app.sessionReads,
    providerFactoryCalls: app.providerFactoryCalls,
    resetAccounts: app.resetAccounts,
    mailbox: app.mailbox,
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      rmSync(outDir, { recursive: true, force: true });
    },
  };
}
