/**
 * The configuration the session control tests share: a credentials provider with two users (any
 * password "pw"), the given registry as `session.store`, and the `sessionRevoked` events collected.
 */
import Credentials from "../../src/providers/credentials.js";
import type { AuthConfig } from "../../src/types/config.js";
import type { SessionRegistry, SessionRevokedMessage } from "../../src/types/session-registry.js";

const secret = "session-control-secret-0123456789abcdefgh";
export const users: Record<string, { id: string; name: string; email: string }> = {
  ada: { id: "u-ada", name: "Ada", email: "ada@example.com" },
  bob: { id: "u-bob", name: "Bob", email: "bob@example.com" },
};

/** The shared configuration over `store`, with `overrides` on top (`session` merged, with `store` kept). */
export function sessionControlConfig(store: SessionRegistry | undefined, overrides: Partial<AuthConfig> = {}) {
  const revoked: SessionRevokedMessage[] = [];
  const { session, ...rest } = overrides;
  const config: AuthConfig = {
    secret,
    trustHost: true,
    providers: [
      Credentials({
        credentials: { username: {}, password: {} },
        authorize: ({ username, password }) => (password === "pw" ? (users[username as string] ?? null) : null),
      }),
    ],
    events: { sessionRevoked: (message) => void revoked.push(message) },
    logger: { error: () => {}, warn: () => {} },
    ...rest,
    session: { store, ...session },
  };
  return { config, revoked };
}
