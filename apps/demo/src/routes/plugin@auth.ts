/**
 * authlib for the whole app: Qwik City runs this plugin's onRequest before every route.
 */
import { FrameworkAuth$ } from "@authlib/qwik";
import { demoAuthConfig } from "../server/auth-config";

export const { onRequest, useSession, useSignIn, useSignOut } = FrameworkAuth$((ev) => demoAuthConfig(ev.env));
