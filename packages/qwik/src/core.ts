/**
 * The one way this package reaches `@authlib/core`'s request path (`Auth`, `getSession`, env defaults).
 *
 * Components import `useSession`/`useSignIn` from the app's `plugin@auth.ts`, so every module of this
 * package is also part of the browser's module graph. A static import of `@authlib/core` would pull core's
 * server-only modules (the CommonJS `cookie`, `node:` built-ins) into it: in `vite` dev the browser then
 * fails to load them, and the production client build warns or fails. Loading core here, behind
 * `isServer`, keeps it out: the client build sees `if (false)` and drops the import, and in dev the
 * browser never runs it. (Errors come from `@authlib/core/errors`, which imports nothing.)
 */
import { isServer } from "@builder.io/qwik/build";

/** `@authlib/core`'s main entry point. */
export type Core = typeof import("@authlib/core");

let core: Promise<Core> | undefined;

/** Core's main module, loaded once. Server only: in the browser it throws (nothing there calls it). */
export function loadCore(): Promise<Core> {
  if (isServer) {
    core ??= import("@authlib/core");
    return core;
  }
  throw new Error("authlib: @authlib/core runs on the server only.");
}
