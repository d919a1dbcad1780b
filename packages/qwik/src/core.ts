/**
 * The one way this package reaches `@authlib/core` at run time: its integration entry point
 * (`@authlib/core/integration`: the instance of a configuration, its answers as data, env defaults).
 *
 * Components import `useSession`/`useSignIn` from the app's `plugin@auth.ts`, so every module of this
 * package is also part of the browser's module graph. A static import of core would pull its server-only
 * modules (the CommonJS `cookie`, `node:` built-ins) into it: in `vite` dev the browser then fails to load
 * them, and the production client build warns or fails. Loading core here, behind `isServer`, keeps it
 * out: the client build sees `if (false)` and drops the import, and in dev the browser never runs it.
 * (Errors come from `@authlib/core/errors`, which imports nothing.)
 */
import { isServer } from "@builder.io/qwik/build";

/** `@authlib/core/integration`. */
export type Core = typeof import("@authlib/core/integration");

let core: Promise<Core> | undefined;

/** Core's integration module, loaded once. Server only: in the browser it throws (nothing there calls it). */
export function loadCore(): Promise<Core> {
  if (isServer) {
    core ??= import("@authlib/core/integration");
    return core;
  }
  throw new Error("authlib: @authlib/core runs on the server only.");
}
