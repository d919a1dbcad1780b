/**
 * The demo's authlib configuration: the credentials provider with the demo user, real provider presets
 * (GitHub, Google) when their env variables are set, a session update hook, and every event into the
 * audit log.
 */
import { CredentialsSignin, type Provider } from "@authlib/core";
import Credentials from "@authlib/core/providers/credentials";
import GitHub from "@authlib/core/providers/github";
import Google from "@authlib/core/providers/google";
import type { FrameworkAuthConfig } from "@authlib/qwik";
import { recordEvent } from "./audit-log";
import { authorizeDemoUser } from "./demo-user";
import { localDevSecret } from "./dev-secret";

/** Reads env variables (Qwik's `ev.env`). */
export interface EnvGetter {
  get(name: string): string | undefined;
}

/** Rejected demo credentials. The code reaches the URL and the form, so it does not say which field was wrong. */
class InvalidLogin extends CredentialsSignin {
  override code = "invalid-login";
}

const SECRET_VARIABLES = ["AUTH_SECRET", "AUTH_SECRET_1", "AUTH_SECRET_2", "AUTH_SECRET_3"];

/** Real OAuth presets, each only when its client id and secret are set (setEnvDefaults reads them). */
function presets(env: EnvGetter): Provider[] {
  const configured = (id: string) => Boolean(env.get(`AUTH_${id}_ID`) && env.get(`AUTH_${id}_SECRET`));
  return [...(configured("GITHUB") ? [GitHub] : []), ...(configured("GOOGLE") ? [Google] : [])];
}

/** The configuration, built per request from the env. */
export function demoAuthConfig(env: EnvGetter): FrameworkAuthConfig {
  return {
    // setEnvDefaults reads AUTH_SECRET when it is set; otherwise the demo keeps its own secret on disk.
    secret: SECRET_VARIABLES.some((name) => env.get(name)) ? undefined : localDevSecret(),
    providers: [
      Credentials({
        name: "Demo account",
        credentials: {
          email: { label: "Email", type: "email", autocomplete: "username" },
          password: { label: "Password", type: "password", autocomplete: "current-password" },
        },
        async authorize(credentials) {
          const user = await authorizeDemoUser(credentials.email, credentials.password);
          if (!user) throw new InvalidLogin();
          return user;
        },
      }),
      ...presets(env),
    ],
    callbacks: {
      // The profile page's "update session" sends { name }; only a short string is accepted.
      jwt({ token, trigger, session }) {
        const name: unknown = session?.name;
        if (trigger === "update" && typeof name === "string" && name.trim()) token.name = name.trim().slice(0, 64);
        return token;
      },
    },
    events: {
      signIn: ({ user, account }) => recordEvent("signIn", user.email, account ? `provider ${account.provider}` : ""),
      signOut: (message) => recordEvent("signOut", "token" in message ? message.token?.email : undefined),
      session: ({ session }) => recordEvent("session", session.user?.email),
      createUser: ({ user }) => recordEvent("createUser", user.email),
      updateUser: ({ user }) => recordEvent("updateUser", user.email),
      linkAccount: ({ user, account }) => recordEvent("linkAccount", user.email, `provider ${account.provider}`),
    },
    theme: { colorScheme: "auto", brandColor: "#4f46e5" },
  };
}
