/**
 * Typed access to the tables of one branch: `client.db.authlib_users.read(id)` and so on. Small on
 * purpose: it is what the adapter is written with and what tests use to look at rows.
 *
 * @module tables
 */
import type { Queryable } from "./drivers/queryable.js";
import type { DatabaseSchema, HostedDbCreateInput, HostedDbFields, HostedDbFilter, HostedDbRecord, HostedDbTableName } from "./schema.js";
import { quoteIdentifier } from "./sql.js";

/** How a field is stored: which SQL type, and whether it is a link (stored as the linked id). */
type FieldKind = "text" | "timestamp" | "integer" | "boolean" | "link" | "json";

interface FieldSpec {
  /**
   * The SQL column. Links are stored in `<name>_id`; other fields keep their record name, except the
   * session metadata of migration 4, named in snake case like the bookkeeping columns (`last_seen_at`).
   */
  readonly column: string;
  readonly kind: FieldKind;
}

/** Every field of a record type, with how it is stored. */
type TableSpec<R extends HostedDbRecord> = { readonly [K in keyof HostedDbFields<R>]-?: FieldSpec };

const text = (column: string): FieldSpec => ({ column, kind: "text" });
const timestamp = (column: string): FieldSpec => ({ column, kind: "timestamp" });
const integer = (column: string): FieldSpec => ({ column, kind: "integer" });
const boolean = (column: string): FieldSpec => ({ column, kind: "boolean" });
const link = (column: string): FieldSpec => ({ column, kind: "link" });
const json = (column: string): FieldSpec => ({ column, kind: "json" });

/** The storage of every table; must agree with the migrations. */
const TABLE_SPECS: { readonly [T in HostedDbTableName]: TableSpec<DatabaseSchema[T]> } = {
  authlib_users: {
    email: text("email"),
    emailVerified: timestamp("emailVerified"),
    image: text("image"),
    name: text("name"),
    role: text("role"),
  },
  authlib_accounts: {
    access_token: text("access_token"),
    expires_at: integer("expires_at"),
    id_token: text("id_token"),
    provider: text("provider"),
    providerAccountId: text("providerAccountId"),
    refresh_token: text("refresh_token"),
    scope: text("scope"),
    session_state: text("session_state"),
    token_type: text("token_type"),
    type: text("type"),
    user: link("user_id"),
  },
  authlib_sessions: {
    activeOrganizationId: text("active_organization_id"),
    clientAddress: text("client_address"),
    expires: timestamp("expires"),
    lastSeenAt: timestamp("last_seen_at"),
    provider: text("provider"),
    sessionToken: text("sessionToken"),
    user: link("user_id"),
    userAgent: text("user_agent"),
  },
  authlib_users_accounts: { account: link("account_id"), user: link("user_id") },
  authlib_users_sessions: { session: link("session_id"), user: link("user_id") },
  authlib_verificationTokens: { expires: timestamp("expires"), identifier: text("identifier"), token: text("token") },
  authlib_authenticators: {
    counter: integer("counter"),
    credentialBackedUp: boolean("credentialBackedUp"),
    credentialID: text("credentialID"),
    credentialDeviceType: text("credentialDeviceType"),
    credentialPublicKey: text("credentialPublicKey"),
    providerAccountId: text("providerAccountId"),
    transports: text("transports"),
    name: text("name"),
    lastUsedAt: timestamp("last_used_at"),
    user: link("user_id"),
  },
  authlib_organizations: { name: text("name"), slug: text("slug"), policy: json("policy"), domainJoin: text("domain_join") },
  authlib_members: { organization: link("organization_id"), user: link("user_id"), role: text("role") },
  authlib_invitations: {
    organization: link("organization_id"),
    email: text("email"),
    role: text("role"),
    invitedBy: text("invited_by"),
    status: text("status"),
    tokenHash: text("token_hash"),
    expires: timestamp("expires"),
  },
  authlib_domains: {
    organization: link("organization_id"),
    name: text("name"),
    token: text("token"),
    verifiedAt: timestamp("verified_at"),
  },
};

/** The columns every table has besides its fields. */
const META_COLUMNS = ["id", "created_at", "updated_at", "version"] as const;

/** Only trusted, fixed aliases go into SQL text. */
const ALIAS = /^[a-z]{1,8}$/;

/**
 * One table of one branch. Every method runs exactly one statement. Reads return records with every
 * field present (`null` when empty); writes ignore `undefined` fields; filters refuse them.
 */
export class HostedDbTable<R extends HostedDbRecord> {
  /** The table name, e.g. `authlib_users`. */
  readonly name: HostedDbTableName;
  /** The schema-qualified, quoted name for SQL text, e.g. `"main"."authlib_users"`. */
  readonly sqlName: string;
  readonly #queryable: Queryable;
  readonly #fields: ReadonlyArray<readonly [string, FieldSpec]>;
  readonly #returning: string;

  /** @internal Use `client.db.<table>`. */
  constructor(queryable: Queryable, schema: string, name: HostedDbTableName, spec: TableSpec<R>) {
    this.name = name;
    this.sqlName = `${quoteIdentifier(schema)}.${quoteIdentifier(name)}`;
    this.#queryable = queryable;
    this.#fields = Object.entries<FieldSpec>(spec);
    this.#returning = this.selectColumns();
  }

  /** The quoted SQL column of a field (or of `id`), for hand-written queries such as joins. */
  column(field: keyof HostedDbFields<R> | "id"): string {
    if (field === "id") return quoteIdentifier("id");
    return quoteIdentifier(this.#spec(String(field)).column);
  }

  /**
   * The select list of every column, optionally qualified by a table alias and renamed with a prefix,
   * so two tables can be read in one joined row: `selectColumns("u", "user.")` + `fromRow(row, "user.")`.
   */
  selectColumns(alias?: string, prefix = ""): string {
    if (alias !== undefined && !ALIAS.test(alias)) throw new TypeError(`Invalid table alias ${JSON.stringify(alias)}`);
    const qualifier = alias === undefined ? "" : `${alias}.`;
    const columns = [...META_COLUMNS, ...this.#fields.map(([, spec]) => spec.column)];
    return columns.map((column) => `${qualifier}${quoteIdentifier(column)} AS ${quoteIdentifier(prefix + column)}`).join(", ");
  }

  /** The record with this id, or `null`. */
  async read(id: string): Promise<R | null> {
    const [record] = await this.#select({ id }, true);
    return record ?? null;
  }

  /** Every record matching the filter (all records for `{}`), oldest first. */
  filter(where: HostedDbFilter<R> = {}): Promise<R[]> {
    return this.#select(where, false);
  }

  /** The first (oldest) record matching the filter, or `null`. */
  async findFirst(where: HostedDbFilter<R>): Promise<R | null> {
    const [record] = await this.#select(where, true);
    return record ?? null;
  }

  /**
   * Inserts a record and returns it as stored. Constraint violations (unique, link) throw. `createdAt`
   * sets `meta.createdAt` (a record whose creation time its caller decides); default: now.
   */
  async create(data: HostedDbCreateInput<R>, options: { createdAt?: Date } = {}): Promise<R> {
    const { createdAt } = options;
    const params: unknown[] = [];
    const columns: string[] = [];
    if (data.id !== undefined) {
      params.push(data.id);
      columns.push(quoteIdentifier("id"));
    }
    if (createdAt !== undefined) {
      params.push(createdAt);
      columns.push(quoteIdentifier("created_at"));
    }
    for (const [field, spec, value] of this.#definedFields(data)) {
      params.push(this.#toParam(field, spec, value));
      columns.push(quoteIdentifier(spec.column));
    }
    const values =
      columns.length === 0 ? "DEFAULT VALUES" : `(${columns.join(", ")}) VALUES (${params.map((_, i) => `$${i + 1}`).join(", ")})`;
    const { rows } = await this.#queryable.query<Record<string, unknown>>(
      `INSERT INTO ${this.sqlName} ${values} RETURNING ${this.#returning}`,
      params,
    );
    return this.fromRow(rows[0]);
  }

  /** Updates the given fields of the record with this id; returns it, or `null` when there is none. */
  async update(id: string, data: Partial<HostedDbFields<R>>): Promise<R | null> {
    const [record] = await this.#update({ id }, data);
    return record ?? null;
  }

  /** Updates the given fields of every record matching a non-empty filter; returns them. */
  updateWhere(where: HostedDbFilter<R>, data: Partial<HostedDbFields<R>>): Promise<R[]> {
    return this.#update(where, data);
  }

  /** Deletes the record with this id (and, through foreign keys, what depends on it); returns it or `null`. */
  async delete(id: string): Promise<R | null> {
    const [record] = await this.#delete({ id });
    return record ?? null;
  }

  /** Deletes every record matching a non-empty filter, in one atomic statement; returns them. */
  deleteWhere(where: HostedDbFilter<R>): Promise<R[]> {
    return this.#delete(where);
  }

  async #select(where: object, firstOnly: boolean): Promise<R[]> {
    const params: unknown[] = [];
    const condition = this.#where(where, params);
    const limitClause = firstOnly ? " LIMIT 1" : "";
    const { rows } = await this.#queryable.query<Record<string, unknown>>(
      `SELECT ${this.#returning} FROM ${this.sqlName} WHERE ${condition} ORDER BY "created_at", "id"${limitClause}`,
      params,
    );
    return rows.map((row) => this.fromRow(row));
  }

  async #update(where: object, data: object): Promise<R[]> {
    const params: unknown[] = [];
    const assignments = [`"updated_at" = now()`, `"version" = "version" + 1`];
    for (const [field, spec, value] of this.#definedFields(data)) {
      params.push(this.#toParam(field, spec, value));
      assignments.push(`${quoteIdentifier(spec.column)} = $${params.length}`);
    }
    const condition = this.#where(where, params, true);
    const { rows } = await this.#queryable.query<Record<string, unknown>>(
      `UPDATE ${this.sqlName} SET ${assignments.join(", ")} WHERE ${condition} RETURNING ${this.#returning}`,
      params,
    );
    return rows.map((row) => this.fromRow(row));
  }

  async #delete(where: object): Promise<R[]> {
    const params: unknown[] = [];
    const condition = this.#where(where, params, true);
    const { rows } = await this.#queryable.query<Record<string, unknown>>(
      `DELETE FROM ${this.sqlName} WHERE ${condition} RETURNING ${this.#returning}`,
      params,
    );
    return rows.map((row) => this.fromRow(row));
  }

  /** Builds a record from a result row (column names as in `selectColumns(alias, prefix)`). */
  fromRow(row: Record<string, unknown>, prefix = ""): R {
    const record: Record<string, unknown> = {
      id: String(row[`${prefix}id`]),
      meta: {
        createdAt: toDate(row[`${prefix}created_at`]),
        updatedAt: toDate(row[`${prefix}updated_at`]),
        version: Number(row[`${prefix}version`]),
      },
    };
    for (const [field, spec] of this.#fields) record[field] = fromColumn(spec.kind, row[prefix + spec.column]);
    // The record is built field by field from this table's spec, which is typed against R.
    return record as unknown as R;
  }

  #spec(field: string): FieldSpec {
    const found = this.#fields.find(([name]) => name === field);
    if (!found) throw new TypeError(`${this.name} has no field ${JSON.stringify(field)}`);
    return found[1];
  }

  *#definedFields(data: object): Generator<readonly [string, FieldSpec, unknown]> {
    for (const [field, value] of Object.entries(data)) {
      if (field === "id" || value === undefined) continue;
      yield [field, this.#spec(field), value];
    }
  }

  #toParam(field: string, spec: FieldSpec, value: unknown): unknown {
    // As text: `pg` would send a JS array as a Postgres array, not as JSON.
    if (value !== null && spec.kind === "json") return JSON.stringify(value);
    if (value === null || spec.kind !== "link") return value;
    if (typeof value === "object" && "id" in value && typeof value.id === "string") return value.id;
    throw new TypeError(`${this.name}.${field} is a link: pass { id } or null`);
  }

  /** SQL condition for an equality filter; its values are appended to `params`. */
  #where(where: object, params: unknown[], requireCondition = false): string {
    const conditions: string[] = [];
    for (const [field, value] of Object.entries(where)) {
      if (value === undefined) throw new TypeError(`${this.name}: filter value of ${JSON.stringify(field)} is undefined`);
      const column = field === "id" ? quoteIdentifier("id") : quoteIdentifier(this.#spec(field).column);
      const param = field === "id" ? value : this.#toParam(field, this.#spec(field), value);
      if (param === null) {
        conditions.push(`${column} IS NULL`);
      } else {
        params.push(param);
        conditions.push(`${column} = $${params.length}`);
      }
    }
    if (conditions.length === 0) {
      if (requireCondition) throw new TypeError(`${this.name}: refusing to update or delete without a filter`);
      return "TRUE";
    }
    return conditions.join(" AND ");
  }
}

function toDate(value: unknown): Date {
  return value instanceof Date ? value : new Date(String(value));
}

function fromColumn(kind: FieldKind, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  switch (kind) {
    case "timestamp":
      return toDate(value);
    // `pg` returns bigint as a string, PGlite as a number.
    case "integer":
      return Number(value);
    case "boolean":
      return Boolean(value);
    case "link":
      return { id: String(value) };
    // Both drivers parse jsonb; a driver configured to hand out text still gives the value.
    case "json":
      return typeof value === "string" ? JSON.parse(value) : value;
    default:
      return String(value);
  }
}

/** Every table of one branch, by name. */
export type HostedDbTables = { readonly [T in HostedDbTableName]: HostedDbTable<DatabaseSchema[T]> };

/** The table accessors of `schema` over `queryable` (a pool, a connection or a transaction). */
export function createTables(queryable: Queryable, schema: string): HostedDbTables {
  const table = <T extends HostedDbTableName>(name: T) => new HostedDbTable<DatabaseSchema[T]>(queryable, schema, name, TABLE_SPECS[name]);
  return {
    authlib_users: table("authlib_users"),
    authlib_accounts: table("authlib_accounts"),
    authlib_sessions: table("authlib_sessions"),
    authlib_users_accounts: table("authlib_users_accounts"),
    authlib_users_sessions: table("authlib_users_sessions"),
    authlib_verificationTokens: table("authlib_verificationTokens"),
    authlib_authenticators: table("authlib_authenticators"),
    authlib_organizations: table("authlib_organizations"),
    authlib_members: table("authlib_members"),
    authlib_invitations: table("authlib_invitations"),
    authlib_domains: table("authlib_domains"),
  };
}
