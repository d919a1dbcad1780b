/**
 * docs/getting-started.md: `src/routes/plugin@auth.ts` of a Qwik City app, with a credentials sign-in
 * and GitHub (only when AUTH_GITHUB_ID / AUTH_GITHUB_SECRET are set).
 */
import { verifyPassword } from "@authlib/core/password";
import Credentials from "@authlib/core/providers/credentials";
import GitHub from "@authlib/core/providers/github";
import { FrameworkAuth$, type FrameworkAuthConfig } from "@authlib/qwik";
import { isServer } from "@builder.io/qwik/build";
import { findUserByEmail } from "./users";

/** The configuration: one object for every request (see below). */
const built: { config?: FrameworkAuthConfig } = {};

export const { onRequest, useSession, useSignIn, useSignOut } = FrameworkAuth$((ev) => {
  // The client build sees this function too; this line lets it drop it (and the imports above).
  if (!isServer) throw new Error("The authlib configuration is server-only.");
  // Built on the first request, then the same object on every request: authlib resolves it once.
  built.config ??= {
    providers: [
      Credentials({
        credentials: {
          email: { label: "Email", type: "email" },
          password: { label: "Password", type: "password" },
        },
        async authorize({ email, password }) {
          const user = await findUserByEmail(String(email));
          if (!user || !(await verifyPassword(String(password), user.passwordHash))) return null;
          return { id: user.id, name: user.name, email: user.email };
        },
      }),
      // setEnvDefaults fills clientId / clientSecret from AUTH_GITHUB_ID / AUTH_GITHUB_SECRET.
      ...(ev.env.get("AUTH_GITHUB_ID") ? [GitHub] : []),
    ],
  };
  return built.config;
});
