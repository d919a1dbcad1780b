/**
 * The start-up check of the `admin` option (`FeatureDefinition.check`): who is an admin must be said, the
 * impersonation lifetime must be in range, and a ban must be able to end the user's sessions.
 *
 * @module features/admin/config-check
 */
import { AuthError, InvalidSessionConfig, MissingAdapter } from "../../errors.js";
import type { AuthConfig } from "../../types/config.js";

const DAY = 24 * 60 * 60;

/** The session record methods: with them an adapter is the registry of JWT sessions. */
const sessionRecordMethods = [
  "createSessionRecord",
  "getSessionRecord",
  "listSessionRecords",
  "touchSessionRecord",
  "deleteSessionRecords",
] as const;

/** The first error in the `admin` option, or `undefined` (the start-up check). */
export function adminConfigError(config: AuthConfig): AuthError | undefined {
  const admin = config.admin;
  if (admin === undefined) return undefined;
  if (typeof admin !== "object" || admin === null) return new AuthError('admin must be an object: `admin: { roles: ["admin"] }`.');
  const roles = admin.roles;
  if (roles !== undefined && (!Array.isArray(roles) || roles.some((role) => typeof role !== "string" || role === "")))
    return new AuthError("admin.roles must be a list of role names.");
  if (admin.isAdmin !== undefined && typeof admin.isAdmin !== "function")
    return new AuthError("admin.isAdmin must be a function of the user.");
  if (!admin.isAdmin && !(roles && roles.length > 0))
    return new AuthError("admin needs `isAdmin` or a non-empty `roles`: the app decides who is an admin.");
  if (admin.banMessage !== undefined && (typeof admin.banMessage !== "string" || admin.banMessage.trim() === ""))
    return new AuthError("admin.banMessage must be a non-empty text.");
  const impersonation = admin.impersonation;
  if (impersonation !== undefined && impersonation !== false) {
    const maxAge = impersonation.maxAge;
    if (maxAge !== undefined && !(Number.isInteger(maxAge) && maxAge >= 60 && maxAge <= DAY))
      return new AuthError("admin.impersonation.maxAge must be a whole number of seconds from 60 to 86400 (1 day).");
  }
  if (!config.adapter) return new MissingAdapter("admin needs an adapter: the users, their bans and their sessions live there.");
  // A ban must end the user's open sessions: database sessions end in the adapter; JWT sessions only
  // through a session registry (with an adapter, the default strategy is database sessions) (`session.store`, or the adapter's session records).
  const strategy = config.session?.strategy ?? "database";
  const adapter = config.adapter as Record<string, unknown>;
  const records = sessionRecordMethods.every((method) => typeof adapter[method] === "function");
  if (strategy === "jwt") {
    if (!config.session?.store && !records)
      return new InvalidSessionConfig(
        "admin with JWT sessions needs a session registry, so a ban or a deletion ends the user's open sessions: set session.store (memorySessionStore(), redisSessionStore({ client }), hostedDbSessionStore(client)) or use an adapter with the session record methods, or database sessions.",
      );
  } else if (typeof config.adapter.deleteSessionsByUserId !== "function" && !records) {
    return new InvalidSessionConfig(
      "admin with database sessions needs the adapter method deleteSessionsByUserId (or the session record methods), so a ban ends the user's sessions.",
    );
  }
  return undefined;
}
