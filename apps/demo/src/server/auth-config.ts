/**
 * The demo's authlib configuration: users and sessions in the hosted-db adapter (database sessions);
 * the credentials provider with the demo user, the development OpenID Provider, email magic links
 * through the development SMTP server, passkeys, email-and-password accounts (`Password()`: sign-up,
 * reset and change, their mails through the same SMTP server), and real provider presets (GitHub,
 * Google) when their env variables are set; a session update hook, the audit trail in the database, the
 * second factor, and organizations.
 *
 * The demo user keeps signing in through its own Credentials provider (id `credentials`); `Password()`
 * (id `password`) is for the accounts visitors create. The two do not meet: the demo user has no password
 * account, and a visitor's password never reaches the demo's `authorize`.
 */
import { CredentialsSignin, type OIDCConfig, type Provider } from "@authlib/core";
import Credentials from "@authlib/core/providers/credentials";
import GitHub from "@authlib/core/providers/github";
import Google from "@authlib/core/providers/google";
import Nodemailer from "@authlib/core/providers/nodemailer";
import Passkey from "@authlib/core/providers/passkey";
import Password from "@authlib/core/providers/password";
import { hostedDbAuditStore } from "@authlib/hosted-db-adapter";
import type { FrameworkAuthConfig } from "@authlib/qwik";
import { authorizeDemoUser } from "./demo-user";
import { localDevSecret } from "./dev-secret";
import { DEMO_OP_PROVIDER_ID, type DemoServices } from "./services";

/** Reads env variables (Qwik's `ev.env`). */
export interface EnvGetter {
  get(name: string): string | undefined;
}

/** Rejected demo credentials. The code reaches the URL and the form, so it does not say which field was wrong. */
class InvalidLogin extends CredentialsSignin {
  override code = "invalid-login";
}

const SECRET_VARIABLES = ["AUTH_SECRET", "AUTH_SECRET_1", "AUTH_SECRET_2", "AUTH_SECRET_3"];

/** The sender of the sign-in mails. */
export const DEMO_MAIL_FROM = "authlib demo <no-reply@authlib-demo.localhost>";

/** The longest display name the profile page may set. */
const MAX_NAME_LENGTH = 64;

/** Real OAuth presets, each only when its client id and secret are set (setEnvDefaults reads them). */
function presets(env: EnvGetter): Provider[] {
  const configured = (id: string) => Boolean(env.get(`AUTH_${id}_ID`) && env.get(`AUTH_${id}_SECRET`));
  return [...(configured("GITHUB") ? [GitHub] : []), ...(configured("GOOGLE") ? [Google] : [])];
}

/** The development OP, as a generic OIDC provider (discovery from its issuer). */
function demoOpenIdProvider({ oidc }: DemoServices): OIDCConfig {
  return {
    id: DEMO_OP_PROVIDER_ID,
    name: "Demo OpenID Provider",
    type: "oidc",
    issuer: oidc.issuer,
    clientId: oidc.clientId,
    clientSecret: oidc.clientSecret,
    // Its login page every time, so a different username can be tried after signing out.
    authorization: { params: { prompt: "login" } },
  };
}

/** A display name sent by the profile page's update, trimmed and cut to size; `undefined` when unusable. */
function requestedName(data: unknown): string | undefined {
  const name: unknown = typeof data === "object" && data !== null ? (data as { name?: unknown }).name : undefined;
  return typeof name === "string" && name.trim() ? name.trim().slice(0, MAX_NAME_LENGTH) : undefined;
}

/** The configuration, built per request from the env and the running services. */
export function demoAuthConfig(env: EnvGetter, services: DemoServices): FrameworkAuthConfig {
  const { adapter } = services.database;
  return {
    // setEnvDefaults reads AUTH_SECRET when it is set; otherwise the demo keeps its own secret on disk.
    secret: SECRET_VARIABLES.some((name) => env.get(name)) ? undefined : localDevSecret(),
    adapter,
    session: { strategy: "database" },
    experimental: { enableWebAuthn: true },
    providers: [
      Credentials({
        name: "Demo account",
        credentials: {
          email: { label: "Email", type: "email", autocomplete: "username" },
          password: { label: "Password", type: "password", autocomplete: "current-password" },
        },
        async authorize(credentials) {
          // The user also exists in the database (created at start): database sessions need that.
          const user = await authorizeDemoUser(credentials.email, credentials.password);
          if (!user) throw new InvalidLogin();
          return user;
        },
      }),
      demoOpenIdProvider(services),
      Nodemailer({ server: services.smtp.transport, from: DEMO_MAIL_FROM }),
      Passkey(),
      // Its verification and reset mails go through the Nodemailer provider above (to /dev/mailbox).
      Password({ name: "Email and password" }),
      ...presets(env),
    ],
    callbacks: {
      // What the pages see of the session: the user with their id (the profile lists their sessions by
      // it), never the session token. The profile page's "update session" sends { name }: it is stored
      // on the user, so every session of theirs shows it.
      async session(params) {
        // How the session was signed in to (when, by which methods, at which level), for the profile page.
        // And the active organization with the user's role there (the /organizations page), when it has one.
        const { expires, authTime, amr, aal, activeOrganizationId, activeOrganizationRole } = params.session;
        const assurance = { authTime, amr, aal, activeOrganizationId, activeOrganizationRole };
        if (!("user" in params)) return { user: params.session.user, expires, ...assurance };
        let { user } = params;
        const name = params.trigger === "update" ? requestedName(params.newSession) : undefined;
        if (name !== undefined && name !== user.name) user = await adapter.updateUser({ id: user.id, name });
        return { user: { id: user.id, name: user.name ?? null, email: user.email, image: user.image ?? null }, expires, ...assurance };
      },
    },
    // The audit trail, in the demo's database: the /audit page reads it back.
    audit: { store: hostedDbAuditStore(services.database.client) },
    // Users may turn on an authenticator app (the profile page); a sign-in then takes a second step.
    twoFactor: { issuer: "authlib demo" },
    // Organizations (the /organizations page and the built-in /auth/organization): the demo user owns
    // "Acme" and "Vault" (created at start, demo-organizations.ts); Vault's policy asks for a second factor.
    // Invitations are mailed through the Nodemailer provider above, to /dev/mailbox.
    organizations: {},
    // The admin's tools (the built-in /auth/admin: users, bans, passwords): the demo user has the `admin`
    // role (database.ts). A ban ends the user's sessions at once (database sessions) and refuses their sign-in.
    admin: { roles: ["admin"] },
    // The app's own "check your email" page: it takes the mailed sign-in code (useEmailCode).
    pages: { verifyRequest: "/check-email" },
    theme: { colorScheme: "auto", brandColor: "#4f46e5" },
  };
}
