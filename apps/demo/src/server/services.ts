/**
 * What the demo runs next to the app: its database, a development OpenID Provider and a development
 * SMTP server. They start once per process (the Node server starts them before it listens; under the
 * Vite dev server the first request does) and stop together on shutdown.
 */
import { type DemoDatabase, demoDatabaseURL, openDemoDatabase } from "./database";
import { type DevOidcProvider, startDevOidcProvider } from "./dev-oidc";
import { type DevSmtpServer, startDevSmtpServer } from "./dev-smtp";

/** The provider id of the development OP in the demo's configuration (and in its callback URL). */
export const DEMO_OP_PROVIDER_ID = "demo-op";

/** The running services. */
export interface DemoServices {
  readonly database: DemoDatabase;
  readonly oidc: DevOidcProvider;
  readonly smtp: DevSmtpServer;
}

/** Where the services listen and what they accept. */
export interface DemoServicesOptions {
  /** `file://<folder>` (PGlite), `memory://` or `postgres://…`. */
  databaseURL: string;
  /** Port of the development OP on 127.0.0.1; `0` picks a free one. */
  oidcPort: number;
  /** Port of the development SMTP server on 127.0.0.1; `0` picks a free one. */
  smtpPort: number;
  /** The demo's callback URLs the OP accepts as redirect URIs. */
  redirectUris: string[];
}

/** Env variables the services read. */
export type DemoServicesEnv = Record<string, string | undefined>;

/** A port from an env variable: an integer from 0 to 65535, or `fallback` when unset. */
function portFrom(env: DemoServicesEnv, name: string, fallback: number): number {
  const value = env[name];
  if (value === undefined || value === "") return fallback;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`${name} must be a port number (0 to 65535), not ${JSON.stringify(value)}.`);
  return port;
}

/**
 * The callback URLs of the demo's OP sign-in, for every origin the demo answers under: `localhost`,
 * `127.0.0.1` and `[::1]` on `PORT`, `HOST` when it names another host, and `AUTHLIB_URL` when set.
 */
export function demoRedirectUris(env: DemoServicesEnv): string[] {
  const port = portFrom(env, "PORT", 3000);
  const callbackPath = `/callback/${DEMO_OP_PROVIDER_ID}`;
  const hosts = ["localhost", "127.0.0.1", "[::1]"];
  const host = env.HOST;
  if (host && !["0.0.0.0", "::", ...hosts].includes(host)) hosts.push(host.includes(":") ? `[${host}]` : host);
  const uris = hosts.map((name) => `http://${name}:${port}/auth${callbackPath}`);
  if (env.AUTHLIB_URL) {
    const url = new URL(env.AUTHLIB_URL);
    const basePath = url.pathname === "/" ? "/auth" : url.pathname.replace(/\/+$/, "");
    uris.push(`${url.origin}${basePath}${callbackPath}`);
  }
  return [...new Set(uris)];
}

/**
 * The options from the env: `AUTHLIB_DATABASE_URL` (else `.data/db`), `DEMO_OIDC_PORT` (default
 * PORT + 1), `DEMO_SMTP_PORT` (default PORT + 2), `PORT` (default 3000), `HOST`, `AUTHLIB_URL`.
 */
export function demoServicesOptions(env: DemoServicesEnv = process.env): DemoServicesOptions {
  const appPort = portFrom(env, "PORT", 3000);
  return {
    databaseURL: demoDatabaseURL(env),
    oidcPort: portFrom(env, "DEMO_OIDC_PORT", appPort === 0 ? 0 : appPort + 1),
    smtpPort: portFrom(env, "DEMO_SMTP_PORT", appPort === 0 ? 0 : appPort + 2),
    redirectUris: demoRedirectUris(env),
  };
}

/** An error of a service that could not start, with what to do about a taken port. */
function startError(service: string, variable: string, port: number, error: unknown): Error {
  const code = typeof error === "object" && error !== null && "code" in error ? error.code : undefined;
  if (code === "EADDRINUSE") {
    return new Error(
      `The ${service} cannot listen on 127.0.0.1:${port}: the port is in use. Set ${variable} to another port (0 picks a free one).`,
      {
        cause: error,
      },
    );
  }
  return new Error(`The ${service} did not start: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
}

async function launch(options: DemoServicesOptions): Promise<DemoServices> {
  const [database, oidc, smtp] = await Promise.allSettled([
    openDemoDatabase(options.databaseURL).catch((error: unknown) => {
      throw new Error(`The database at ${options.databaseURL} did not open: ${error instanceof Error ? error.message : String(error)}`, {
        cause: error,
      });
    }),
    startDevOidcProvider({ port: options.oidcPort, redirectUris: options.redirectUris }).catch((error: unknown) => {
      throw startError("development OpenID Provider", "DEMO_OIDC_PORT", options.oidcPort, error);
    }),
    startDevSmtpServer({ port: options.smtpPort }).catch((error: unknown) => {
      throw startError("development SMTP server", "DEMO_SMTP_PORT", options.smtpPort, error);
    }),
  ]);
  if (database.status === "fulfilled" && oidc.status === "fulfilled" && smtp.status === "fulfilled") {
    return { database: database.value, oidc: oidc.value, smtp: smtp.value };
  }
  // Whatever did start is stopped again, so a retry (or the process exit) finds nothing half-open.
  const started = [database, oidc, smtp].flatMap((result) => (result.status === "fulfilled" ? [result.value] : []));
  await Promise.allSettled(started.map((service) => service.close()));
  const failed = [database, oidc, smtp].find((result) => result.status === "rejected");
  throw failed?.reason;
}

/** Kept on globalThis, so that the Vite dev server reloading a module does not start a second set. */
const SERVICES = Symbol.for("@authlib/demo:services");
type ServicesHolder = { [SERVICES]?: Promise<DemoServices> };
const holder = globalThis as ServicesHolder;

/** Starts the services (once per process; later calls get the same ones). A failed start is retried by the next call. */
export function startDemoServices(options: DemoServicesOptions = demoServicesOptions()): Promise<DemoServices> {
  const running = holder[SERVICES];
  if (running) return running;
  const starting = launch(options);
  holder[SERVICES] = starting;
  starting.catch(() => {
    if (holder[SERVICES] === starting) delete holder[SERVICES];
  });
  return starting;
}

/** The running services, starting them from the env when nothing has yet. */
export function demoServices(): Promise<DemoServices> {
  return startDemoServices();
}

/** Stops the OP and the SMTP server and closes the database. Safe to call when nothing runs. */
export async function stopDemoServices(): Promise<void> {
  const running = holder[SERVICES];
  delete holder[SERVICES];
  const services = await running?.catch(() => undefined);
  if (!services) return;
  await Promise.allSettled([services.oidc.close(), services.smtp.close(), services.database.close()]);
}
