/**
 * authlib for the whole app: Qwik City runs this plugin's onRequest before every route.
 */
import { FrameworkAuth$ } from "@authlib/qwik";
import { isServer } from "@builder.io/qwik/build";
import { demoAuthConfig } from "../server/auth-config";
import { demoServices } from "../server/services";

export const { onRequest, useSession, useSignIn, useSignOut } = FrameworkAuth$(async (ev) => {
  // Only the server ever calls this. Saying so lets the client build drop the configuration, and with
  // it the Node-only modules it imports (the database, the dev OP and SMTP server, password hashing).
  if (!isServer) throw new Error("The authlib configuration is server-only.");
  return demoAuthConfig(ev.env, await demoServices());
});
