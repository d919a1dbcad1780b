/**
 * The database strategy, its code (`session/database.ts`) loaded with the first session operation of a
 * configuration that uses it: an app on JWT sessions never loads it (`scripts/bundle-budget.mjs`).
 *
 * @module session/lazy-database
 */
import type { SessionStrategyHandler } from "../types/internal.js";

let loaded: Promise<SessionStrategyHandler> | undefined;

function strategy(): Promise<SessionStrategyHandler> {
  loaded ??= import("./database.js").then((module) => module.databaseSessionStrategy);
  return loaded;
}

/** Every method of a strategy (the type makes a missing one an error). */
const methods = {
  read: true,
  start: true,
  end: true,
  credentialsUser: true,
  currentUser: true,
  currentSession: true,
  currentAssurance: true,
  refreshUser: true,
  setActiveOrganization: true,
} satisfies Record<keyof SessionStrategyHandler, true>;

/** The database session strategy (see the module comment). */
export const lazyDatabaseSessionStrategy = Object.fromEntries(
  Object.keys(methods).map((name) => [
    name,
    async (...args: unknown[]) => ((await strategy())[name as keyof SessionStrategyHandler] as (...a: unknown[]) => unknown)(...args),
  ]),
) as unknown as SessionStrategyHandler;
