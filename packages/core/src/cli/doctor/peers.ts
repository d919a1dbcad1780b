/**
 * Optional peer packages a configuration needs: nodemailer for an SMTP email provider,
 * @simplewebauthn/server for passkeys, and the hosted database's package and driver when
 * `AUTHLIB_DATABASE_URL` is set. Looked up from the app's folder the way Node resolves packages
 * (`node_modules` in the folder and each parent), without loading them.
 *
 * @module cli/doctor/peers
 */
import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import type { ProviderConfig } from "../../types/providers.js";
import { DB_PACKAGE } from "../db.js";
import { error, type Finding } from "./findings.js";

/** True when `name` is installed where an app in `cwd` would find it. */
export function isInstalled(name: string, cwd: string): boolean {
  let folder = resolve(cwd);
  for (;;) {
    if (existsSync(join(folder, "node_modules", name, "package.json"))) return true;
    const parent = dirname(folder);
    if (parent === folder) return false;
    folder = parent;
  }
}

/** The driver a database URL needs. */
export function driverFor(databaseURL: string): string {
  return /^postgres(ql)?:\/\//.test(databaseURL) ? "pg" : "@electric-sql/pglite";
}

/** True when the hosted database's package and the driver for `databaseURL` are both installed. */
export function databasePackagesInstalled(databaseURL: string, cwd: string): boolean {
  return isInstalled(DB_PACKAGE, cwd) && isInstalled(driverFor(databaseURL), cwd);
}

/** A missing optional peer, per feature that needs it. */
export function peerFindings(providers: readonly ProviderConfig[], databaseURL: string | undefined, cwd: string): Finding[] {
  const needs: Array<[string, string]> = [];
  const smtp = providers.find((p) => p.type === "email" && (p as { server?: unknown }).server !== undefined);
  if (smtp) needs.push(["nodemailer", `the email provider "${smtp.id}" sends mail over SMTP`]);
  const passkey = providers.find((p) => p.type === "webauthn");
  if (passkey) needs.push(["@simplewebauthn/server", `the passkey provider "${passkey.id}" verifies WebAuthn responses`]);
  if (databaseURL !== undefined) {
    needs.push([DB_PACKAGE, "AUTHLIB_DATABASE_URL is set"]);
    needs.push([
      driverFor(databaseURL),
      `AUTHLIB_DATABASE_URL is a ${driverFor(databaseURL) === "pg" ? "PostgreSQL server" : "PGlite database"}`,
    ]);
  }
  return needs
    .filter(([name]) => !isInstalled(name, cwd))
    .map(([name, why]) => error(`${name} is not installed, and ${why}.`, `npm install ${name}`));
}
