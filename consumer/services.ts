/**
 * What the consumer app's sign-ins talk to, one of each per test file: Chromium, a local OpenID Provider
 * (the core tests' `oidc-provider` fixture) and an SMTP server that keeps the mails; and the env variables
 * that point the guide's configuration at them.
 */
import type { Browser } from "playwright-core";
import { afterAll, beforeAll } from "vitest";
import { launchChromium } from "../packages/core/test/helpers/chromium.js";
import { startTestOP, type TestOP } from "../packages/core/test/helpers/oidc-provider.js";
import { startSmtpServer } from "../packages/core/test/helpers/smtp.js";
import { freePort } from "./server.js";

/** The guide's OpenID Provider id (`{ id: "sso", … }`) and the button the built-in page shows for it. */
export const SSO = { id: "sso", button: "Sign in with Company SSO", client: "consumer-app", secret: "consumer-app-secret" };

/** The SMTP server of {@link startServices}. */
export type SmtpServer = Awaited<ReturnType<typeof startSmtpServer>>;

/** The shared services, and the ports the app's servers will listen on (the OP knows their callback URLs). */
export interface Services {
  browser: Browser;
  op: TestOP;
  smtp: SmtpServer;
  /** A port per server the file starts, chosen up front. */
  ports: Record<string, number>;
}

/**
 * Starts the services in the file's `beforeAll` and stops them in its `afterAll`; `servers` names the
 * servers the file will start (each gets a port now, and a callback URL at the OP).
 */
export function useServices(servers: string[]): () => Services {
  let services: Services | undefined;
  beforeAll(async () => {
    const ports: Record<string, number> = {};
    for (const name of servers) ports[name] = await freePort();
    const redirect_uris = Object.values(ports).map((port) => `http://127.0.0.1:${port}/auth/callback/${SSO.id}`);
    const [browser, op, smtp] = await Promise.all([
      launchChromium(),
      startTestOP({ clients: [{ client_id: SSO.client, client_secret: SSO.secret, redirect_uris }] }),
      startSmtpServer(),
    ]);
    services = { browser, op, smtp, ports };
  });
  afterAll(async () => {
    await Promise.all([services?.browser.close(), services?.op.close(), services?.smtp.close()]);
  });
  return () => {
    if (!services) throw new Error("the services are not started (useServices runs in beforeAll)");
    return services;
  };
}

/** The variables that point the guide's `AUTH_SSO_*` and `EMAIL_SERVER` at the services. */
export function serviceVars(services: Services, email: boolean): Record<string, string> {
  const vars: Record<string, string> = { AUTH_SSO_ID: SSO.client, AUTH_SSO_SECRET: SSO.secret, AUTH_SSO_ISSUER: services.op.issuer };
  if (email) vars.EMAIL_SERVER = `smtp://127.0.0.1:${services.smtp.port}`;
  return vars;
}
