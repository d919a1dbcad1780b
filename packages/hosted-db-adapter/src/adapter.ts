/**
 * `HostedDbAdapter`: the authlib `Adapter` over a `HostedDbClient`.
 *
 * Integrity lives in the database, not in read-then-write code: unique constraints reject a second
 * user with the same email and a second link of the same provider account; foreign keys with
 * ON DELETE CASCADE remove a deleted user's accounts, sessions, authenticators and join rows in the
 * same statement; a verification token is consumed by one `DELETE … RETURNING`, so of two concurrent
 * uses exactly one gets it, and is written only when no live one has the same key (so of two concurrent
 * claims of one passkey challenge exactly one succeeds). Expired tokens are swept a few per write.
 *
 * Session records (session control) are `hostedDbSessionStore(client)`: a database session's row is its
 * record (the metadata `createSession` is given is stored beside the token), and JWT sessions' records
 * live in `authlib_session_records`, which has no foreign key (a JWT session's user need not be stored),
 * so deleting a user or their sessions deletes those rows explicitly, in the same transaction.
 *
 * Organizations (migration 7) are in organizations.ts; deleting a user deletes their memberships (foreign key).
 * The authorization server's records (migration 8) are in authorization-server.ts; deleting a user deletes
 * their consents, authorization codes, grants and answered device codes (foreign keys).
 *
 * @module adapter
 */
import type {
  Adapter,
  AdapterAccount,
  AdapterAccountType,
  AdapterAuthenticator,
  AdapterSession,
  AdapterUser,
  SessionMetadata,
  VerificationToken,
} from "@authlib/core/adapters";
import { adminMethods } from "./admin.js";
import { apiKeyMethods } from "./api-keys.js";
import { authorizationServerMethods } from "./authorization-server.js";
import type { HostedDbClient } from "./client.js";
import { HostedDbError } from "./errors.js";
import { organizationMethods } from "./organizations.js";
import type {
  AuthlibAccountRecord,
  AuthlibAuthenticatorRecord,
  AuthlibSessionRecord,
  AuthlibUserRecord,
  AuthlibVerificationTokenRecord,
  HostedDbFields,
} from "./schema.js";
import { scimMethods } from "./scim.js";
import { deleteUserSessionRecords, hostedDbSessionStore } from "./session-store.js";
import { ssoMethods } from "./sso.js";
import { createVerificationTokenOnce } from "./verification-tokens.js";

const ACCOUNT_TYPES: readonly string[] = ["oauth", "oidc", "email", "webauthn", "credentials"] satisfies AdapterAccountType[];

/**
 * The authlib adapter for the hosted database. Run `client.migrate()` (or `npx authlib-db migrate`) once
 * before first use. Every method of `Adapter` is implemented.
 *
 * Returned objects are plain objects with exactly the documented keys: users always have `id`, `email`,
 * `emailVerified`, `name` and `image` (`null` when empty); accounts have `userId`, `type`, `provider`,
 * `providerAccountId` plus only those token fields that are stored (empty ones are left out, as
 * providers leave them out); sessions `sessionToken`, `userId`, `expires` and `id` (the row's id, the
 * public id the session is listed and revoked by); verification tokens `identifier`, `token`, `expires`.
 */
export function HostedDbAdapter(client: HostedDbClient): Required<Adapter> {
  return {
    ...userMethods(client),
    ...accountMethods(client),
    ...sessionMethods(client),
    ...verificationTokenMethods(client),
    ...sessionRecordMethods(client),
    ...authenticatorMethods(client),
    ...organizationMethods(client),
    ...authorizationServerMethods(client),
    ...apiKeyMethods(client),
    ...adminMethods(client),
    ...ssoMethods(client),
    ...scimMethods(client),
  };
}

/** The methods of `Adapter` named in `Keys`, as the hosted-db adapter implements them. */
type Methods<Keys extends keyof Adapter> = Pick<Required<Adapter>, Keys>;

/** Users: one row each; deleting one cascades to its accounts, sessions and authenticators. */
function userMethods(
  client: HostedDbClient,
): Methods<"createUser" | "getUser" | "getUserByEmail" | "getUserByAccount" | "updateUser" | "deleteUser"> {
  const { authlib_users: users, authlib_accounts: accounts } = client.db;
  return {
    async createUser(user) {
      const record = await users.create({
        // An empty id (passkey registration) lets the database generate one.
        id: user.id || undefined,
        email: user.email,
        emailVerified: user.emailVerified ?? null,
        name: user.name ?? null,
        image: user.image ?? null,
        role: roleOf(user),
      });
      return toAdapterUser(record);
    },
    async getUser(id) {
      const record = await users.read(id);
      return record && toAdapterUser(record);
    },
    async getUserByEmail(email) {
      const record = await users.findFirst({ email });
      return record && toAdapterUser(record);
    },
    async getUserByAccount({ provider, providerAccountId }) {
      const { rows } = await client.query<Record<string, unknown>>(
        `SELECT ${users.selectColumns("u")} FROM ${users.sqlName} u
         JOIN ${accounts.sqlName} a ON a.${accounts.column("user")} = u."id"
         WHERE a.${accounts.column("provider")} = $1 AND a.${accounts.column("providerAccountId")} = $2`,
        [provider, providerAccountId],
      );
      return rows[0] === undefined ? null : toAdapterUser(users.fromRow(rows[0]));
    },
    async updateUser({ id, ...changes }) {
      const fields: Partial<HostedDbFields<AuthlibUserRecord>> = {
        email: changes.email,
        emailVerified: changes.emailVerified,
        name: changes.name,
        image: changes.image,
        role: "role" in changes ? roleOf(changes) : undefined,
      };
      const record = await users.update(id, fields);
      if (!record) throw new HostedDbError("NotFound", `updateUser: there is no user with id ${JSON.stringify(id)}.`);
      return toAdapterUser(record);
    },
    async deleteUser(userId) {
      return client.transaction(async (tx) => {
        // JWT session records have no foreign key: they go explicitly, even for a user not stored here.
        await deleteUserSessionRecords(tx, client, userId);
        // Foreign keys cascade to accounts, sessions, authenticators and both join tables within this one statement.
        const record = await tx.db.authlib_users.delete(userId);
        return record && toAdapterUser(record);
      });
    },
  };
}

/** Linked accounts (OAuth, email, passkey, password) and their provider tokens. */
function accountMethods(
  client: HostedDbClient,
): Methods<"linkAccount" | "unlinkAccount" | "getAccount" | "listAccountsByUserId" | "updateAccount" | "swapAccountTokens"> {
  const accounts = client.db.authlib_accounts;
  return {
    async linkAccount(account) {
      return client.transaction(async (tx) => {
        const record = await tx.db.authlib_accounts.create({
          user: { id: account.userId },
          type: account.type,
          provider: account.provider,
          providerAccountId: account.providerAccountId,
          access_token: stringField(account, "access_token"),
          expires_at: typeof account.expires_at === "number" ? account.expires_at : null,
          id_token: stringField(account, "id_token"),
          refresh_token: stringField(account, "refresh_token"),
          scope: stringField(account, "scope"),
          session_state: stringField(account, "session_state"),
          token_type: stringField(account, "token_type"),
        });
        await tx.db.authlib_users_accounts.create({ user: { id: account.userId }, account: { id: record.id } });
        return toAdapterAccount(record);
      });
    },
    async unlinkAccount({ provider, providerAccountId }) {
      // The users_accounts join row goes with it (foreign key cascade).
      const [record] = await accounts.deleteWhere({ provider, providerAccountId });
      return record && toAdapterAccount(record);
    },
    async getAccount(providerAccountId, provider) {
      const record = await accounts.findFirst({ provider, providerAccountId });
      return record && toAdapterAccount(record);
    },
    async listAccountsByUserId(userId) {
      const records = await accounts.filter({ user: { id: userId } });
      return records.map(toAdapterAccount);
    },
    async updateAccount({ provider, providerAccountId, ...tokens }) {
      const [record] = await accounts.updateWhere({ provider, providerAccountId }, tokenColumns(tokens));
      return record ? toAdapterAccount(record) : null;
    },
    async swapAccountTokens({ provider, providerAccountId, ...tokens }, previousRefreshToken) {
      // One conditional UPDATE: of two instances that refreshed with the same token, only the first write lands.
      const [record] = await accounts.updateWhere(
        { provider, providerAccountId, refresh_token: previousRefreshToken },
        tokenColumns(tokens),
      );
      return record ? toAdapterAccount(record) : null;
    },
  };
}

/** Database sessions: a row per session, its id the public id it is listed and revoked by. */
function sessionMethods(
  client: HostedDbClient,
): Methods<"createSession" | "getSessionAndUser" | "updateSession" | "deleteSession" | "deleteSessionsByUserId"> {
  const { authlib_users: users, authlib_sessions: sessions } = client.db;
  return {
    async createSession(session) {
      return insertSession(client, session);
    },
    async getSessionAndUser(sessionToken) {
      // One round trip: this runs on every request of a signed-in user.
      const { rows } = await client.query<Record<string, unknown>>(
        `SELECT ${sessions.selectColumns("s", "s.")}, ${users.selectColumns("u", "u.")} FROM ${sessions.sqlName} s
         JOIN ${users.sqlName} u ON u."id" = s.${sessions.column("user")}
         WHERE s.${sessions.column("sessionToken")} = $1`,
        [sessionToken],
      );
      const row = rows[0];
      if (row === undefined) return null;
      return { session: toAdapterSession(sessions.fromRow(row, "s.")), user: toAdapterUser(users.fromRow(row, "u.")) };
    },
    async updateSession({ sessionToken, expires, userId, activeOrganizationId }) {
      // Only the fields given are written (undefined ones are left): extending keeps the organization.
      const changed = { expires, activeOrganizationId };
      if (userId === undefined) {
        const [record] = await sessions.updateWhere({ sessionToken }, changed);
        return record ? toAdapterSession(record) : null;
      }
      return client.transaction(async (tx) => {
        const [record] = await tx.db.authlib_sessions.updateWhere({ sessionToken }, { ...changed, user: { id: userId } });
        if (!record) return null;
        await tx.db.authlib_users_sessions.updateWhere({ session: { id: record.id } }, { user: { id: userId } });
        return toAdapterSession(record);
      });
    },
    async deleteSession(sessionToken) {
      // The users_sessions join row goes with it (foreign key cascade).
      const [record] = await sessions.deleteWhere({ sessionToken });
      return record ? toAdapterSession(record) : null;
    },
    async deleteSessionsByUserId(userId) {
      return client.transaction(async (tx) => {
        // The users_sessions join rows go with them (foreign key cascade).
        const deleted = await tx.db.authlib_sessions.deleteWhere({ user: { id: userId } });
        return deleted.length + (await deleteUserSessionRecords(tx, client, userId));
      });
    },
  };
}

/** Inserts a database session's row and its join row, with the metadata of its record; one transaction. */
async function insertSession(client: HostedDbClient, session: AdapterSession & Partial<SessionMetadata>): Promise<AdapterSession> {
  const { sessionToken, userId, expires, createdAt, lastSeenAt, userAgent, clientAddress, provider, activeOrganizationId } = session;
  return client.transaction(async (tx) => {
    const table = tx.db.authlib_sessions;
    // By hand rather than `table.create`: `created_at` is bookkeeping there, here it is the sign-in time.
    const { rows } = await tx.query<Record<string, unknown>>(
      `INSERT INTO ${table.sqlName} (${table.column("sessionToken")}, ${table.column("expires")}, ${table.column("user")}, "created_at",
         ${table.column("lastSeenAt")}, ${table.column("userAgent")}, ${table.column("clientAddress")}, ${table.column("provider")},
         ${table.column("activeOrganizationId")})
       VALUES ($1, $2, $3, COALESCE($4::timestamptz, now()), $5, $6, $7, $8, $9) RETURNING ${table.selectColumns()}`,
      [
        sessionToken,
        expires,
        userId,
        createdAt ?? null,
        lastSeenAt ?? null,
        userAgent ?? null,
        clientAddress ?? null,
        provider ?? null,
        activeOrganizationId ?? null,
      ],
    );
    const record = table.fromRow(rows[0] as Record<string, unknown>);
    await tx.db.authlib_users_sessions.create({ user: { id: userId }, session: { id: record.id } });
    return toAdapterSession(record);
  });
}

/** Email sign-in tokens and claimed passkey challenges: written once, used once. */
function verificationTokenMethods(client: HostedDbClient): Methods<"createVerificationToken" | "useVerificationToken"> {
  const { db } = client;
  return {
    async createVerificationToken(verificationToken) {
      // `null` when a live token with this identifier and token exists: how authlib claims a used
      // passkey challenge once. Each write also sweeps a few expired tokens (verification-tokens.ts).
      const record = await createVerificationTokenOnce(client, verificationToken);
      return record && toVerificationToken(record);
    },
    async useVerificationToken({ identifier, token }) {
      // Find and delete in one statement: single use even under concurrency.
      const [record] = await db.authlib_verificationTokens.deleteWhere({ identifier, token });
      return record ? toVerificationToken(record) : null;
    },
  };
}

/** Session records of JWT sessions (and the database sessions' rows), through `hostedDbSessionStore`. */
function sessionRecordMethods(
  client: HostedDbClient,
): Methods<"createSessionRecord" | "getSessionRecord" | "listSessionRecords" | "touchSessionRecord" | "deleteSessionRecords"> {
  const records = hostedDbSessionStore(client);
  return {
    async createSessionRecord(record) {
      await records.create(record);
    },
    async getSessionRecord(userId, id) {
      return records.get(userId, id);
    },
    async listSessionRecords(userId) {
      return records.listByUser(userId);
    },
    async touchSessionRecord(userId, id, lastSeenAt, expires) {
      await records.touch(userId, id, lastSeenAt, expires);
    },
    async deleteSessionRecords(userId, ids, except) {
      return records.delete(userId, ids, except);
    },
  };
}

/** Passkeys (WebAuthn authenticators), with their name, registration time and last use. */
function authenticatorMethods(
  client: HostedDbClient,
): Methods<
  | "getAuthenticator"
  | "createAuthenticator"
  | "listAuthenticatorsByUserId"
  | "updateAuthenticatorCounter"
  | "updateAuthenticator"
  | "deleteAuthenticator"
> {
  const authenticators = client.db.authlib_authenticators;
  return {
    async getAuthenticator(credentialID) {
      const record = await authenticators.findFirst({ credentialID });
      return record && toAdapterAuthenticator(record);
    },
    async createAuthenticator(authenticator) {
      const record = await authenticators.create({
        credentialID: authenticator.credentialID,
        providerAccountId: authenticator.providerAccountId,
        counter: authenticator.counter,
        credentialBackedUp: authenticator.credentialBackedUp,
        credentialPublicKey: authenticator.credentialPublicKey,
        credentialDeviceType: authenticator.credentialDeviceType,
        transports: authenticator.transports ?? null,
        name: authenticator.name ?? null,
        lastUsedAt: authenticator.lastUsedAt ?? null,
        user: { id: authenticator.userId },
      });
      return toAdapterAuthenticator(record);
    },
    async listAuthenticatorsByUserId(userId) {
      const records = await authenticators.filter({ user: { id: userId } });
      return records.map(toAdapterAuthenticator);
    },
    async updateAuthenticatorCounter(credentialID, newCounter) {
      const [record] = await authenticators.updateWhere({ credentialID }, { counter: newCounter });
      if (!record) throw new HostedDbError("NotFound", "updateAuthenticatorCounter: there is no authenticator with this credentialID.");
      return toAdapterAuthenticator(record);
    },
    async updateAuthenticator(credentialID, { counter, name, lastUsedAt }) {
      const [record] = await authenticators.updateWhere({ credentialID }, { counter, name, lastUsedAt });
      return record ? toAdapterAuthenticator(record) : null;
    },
    async deleteAuthenticator(credentialID) {
      const [record] = await authenticators.deleteWhere({ credentialID });
      return record ? toAdapterAuthenticator(record) : null;
    },
  };
}

/** A string token field of an account as it is stored: `null` when absent (other keys of an account are not stored). */
function stringField(
  account: AdapterAccount,
  field: "access_token" | "id_token" | "refresh_token" | "scope" | "session_state" | "token_type",
): string | null {
  const value = account[field];
  return typeof value === "string" ? value : null;
}

/** A field the adapter always writes; a row without it was written by something else. */
function required<T>(value: T | null | undefined, table: string, field: string): T {
  if (value === null || value === undefined) {
    throw new HostedDbError("UnexpectedData", `${table}.${field} is empty in a row the adapter needs it in.`);
  }
  return value;
}

function toAdapterUser(record: AuthlibUserRecord): AdapterUser {
  return {
    id: record.id,
    // NULL: the user has no proven address (see AdapterUser); many users may have none.
    email: record.email ?? null,
    emailVerified: record.emailVerified ?? null,
    name: record.name ?? null,
    image: record.image ?? null,
    // Only a user with a role has the field: a user row reads as Auth.js's shape otherwise.
    ...(record.role ? { role: record.role } : {}),
  };
}

/** The app's role on a user row given to the adapter (`role`, a text), or `null`. */
function roleOf(user: object): string | null {
  const role = (user as { role?: unknown }).role;
  return typeof role === "string" && role !== "" ? role : null;
}

/** The token columns an account update writes (`token_type` lower-cased, as on insert). */
function tokenColumns(tokens: Partial<AdapterAccount>) {
  return {
    access_token: tokens.access_token,
    refresh_token: tokens.refresh_token,
    expires_at: tokens.expires_at,
    id_token: tokens.id_token,
    scope: tokens.scope,
    token_type: tokens.token_type?.toLowerCase(),
  };
}

function toAdapterAccount(record: AuthlibAccountRecord): AdapterAccount {
  const type = required(record.type, "authlib_accounts", "type");
  if (!isAccountType(type))
    throw new HostedDbError("UnexpectedData", `authlib_accounts.type ${JSON.stringify(type)} is not a provider type.`);
  const account: AdapterAccount = {
    userId: required(record.user, "authlib_accounts", "user").id,
    type,
    provider: required(record.provider, "authlib_accounts", "provider"),
    providerAccountId: required(record.providerAccountId, "authlib_accounts", "providerAccountId"),
  };
  if (record.access_token != null) account.access_token = record.access_token;
  if (record.expires_at != null) account.expires_at = record.expires_at;
  if (record.id_token != null) account.id_token = record.id_token;
  if (record.refresh_token != null) account.refresh_token = record.refresh_token;
  if (record.scope != null) account.scope = record.scope;
  if (record.session_state != null) account.session_state = record.session_state;
  if (record.token_type != null) account.token_type = lowerCase(record.token_type);
  return account;
}

function isAccountType(type: string): type is AdapterAccountType {
  return ACCOUNT_TYPES.includes(type);
}

/** `token_type` is case-insensitive and authlib hands it out lower-cased. */
function lowerCase(value: string): Lowercase<string> {
  return value.toLowerCase() as Lowercase<string>;
}

function toAdapterSession(record: AuthlibSessionRecord): AdapterSession {
  return {
    id: record.id,
    sessionToken: required(record.sessionToken, "authlib_sessions", "sessionToken"),
    userId: required(record.user, "authlib_sessions", "user").id,
    expires: required(record.expires, "authlib_sessions", "expires"),
    ...(record.activeOrganizationId ? { activeOrganizationId: record.activeOrganizationId } : {}),
  };
}

function toVerificationToken(record: AuthlibVerificationTokenRecord): VerificationToken {
  return {
    identifier: required(record.identifier, "authlib_verificationTokens", "identifier"),
    token: required(record.token, "authlib_verificationTokens", "token"),
    expires: required(record.expires, "authlib_verificationTokens", "expires"),
  };
}

function toAdapterAuthenticator(record: AuthlibAuthenticatorRecord): AdapterAuthenticator {
  const table = "authlib_authenticators";
  return {
    credentialID: required(record.credentialID, table, "credentialID"),
    userId: required(record.user, table, "user").id,
    providerAccountId: required(record.providerAccountId, table, "providerAccountId"),
    counter: required(record.counter, table, "counter"),
    credentialBackedUp: required(record.credentialBackedUp, table, "credentialBackedUp"),
    credentialPublicKey: required(record.credentialPublicKey, table, "credentialPublicKey"),
    credentialDeviceType: required(record.credentialDeviceType, table, "credentialDeviceType"),
    transports: record.transports ?? null,
    name: record.name ?? null,
    createdAt: record.meta.createdAt,
    lastUsedAt: record.lastUsedAt ?? null,
  };
}
