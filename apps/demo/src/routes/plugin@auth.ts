/**
 * authlib for the whole app: Qwik City runs this plugin's onRequest before every route.
 */
import { FrameworkAuth$, type FrameworkAuthConfig } from "@authlib/qwik";
import { isServer } from "@builder.io/qwik/build";
import { demoAuthConfig } from "../server/auth-config";
import { type DemoServices, demoServices } from "../server/services";

/** One configuration object per set of running services (one per process): authlib resolves it once. */
const configs = new WeakMap<DemoServices, FrameworkAuthConfig>();

export const {
  onRequest,
  useSession,
  useSignIn,
  useSignOut,
  useSessions,
  useRevokeSession,
  useAccounts,
  useUnlinkAccount,
  // Sign-up and reset use authlib's built-in pages (/auth/password/…); the profile changes the password.
  useChangePassword,
  // The mailed sign-in code, typed on the app's own /check-email page.
  useEmailCode,
  // The profile's authenticator app; the second step of a sign-in is authlib's built-in page.
  useEnrollTotp,
  useConfirmTotp,
  useDisableTotp,
  useTwoFactorStatus,
  // The /organizations page: the user's organizations and the session's active one. Members, invitations,
  // domains and the policy are on authlib's built-in /auth/organization page.
  useOrganizations,
  useSetActiveOrganization,
} = FrameworkAuth$(async (ev) => {
  // Only the server ever calls this. Saying so lets the client build drop the configuration, and with
  // it the Node-only modules it imports (the database, the dev OP and SMTP server, password hashing).
  if (!isServer) throw new Error("The authlib configuration is server-only.");
  const services = await demoServices();
  let config = configs.get(services);
  if (!config) {
    config = demoAuthConfig(ev.env, services);
    configs.set(services, config);
  }
  return config;
});
