/**
 * The tables of the authorization server (migration 8) and the reading of their columns: a row as the
 * driver hands it out (`pg` gives bigint as a string, PGlite as a number; both give text[] as an array,
 * jsonb parsed, timestamptz as a `Date`) becomes the value core's record types promise, and a value outside
 * them is reported (`HostedDbError("UnexpectedData")`) rather than handed on.
 *
 * @module oauth-rows
 */
import type { HostedDbClient } from "./client.js";
import { HostedDbError } from "./errors.js";
import { quoteIdentifier } from "./sql.js";

/** The tables of migration 8, by what they hold. */
export const OAUTH_TABLES = {
  clients: "authlib_oauth_clients",
  consents: "authlib_oauth_consents",
  codes: "authlib_oauth_codes",
  grants: "authlib_oauth_grants",
  deviceCodes: "authlib_oauth_device_codes",
  signingKeys: "authlib_oauth_signing_keys",
} as const;

/** The name of one of them on `client`'s branch, quoted for SQL text. */
export function oauthTable(client: HostedDbClient, table: keyof typeof OAUTH_TABLES): string {
  return `${quoteIdentifier(client.branch)}.${quoteIdentifier(OAUTH_TABLES[table])}`;
}

/** A row as a driver returns it: column name to value. */
export type Row = Record<string, unknown>;

/** Reads the columns of one row of `table`, reporting any that breaks the contract. */
export class RowReader {
  constructor(
    private readonly table: string,
    private readonly row: Row,
  ) {}

  /** A NOT NULL column's value; throws when it is empty (a row not written by this adapter). */
  #present(column: string): unknown {
    const value = this.row[column];
    if (value === null || value === undefined) throw this.#unexpected(column, "is empty");
    return value;
  }

  #unexpected(column: string, what: string): HostedDbError {
    return new HostedDbError("UnexpectedData", `${this.table}.${column} ${what} in a row the adapter needs it in.`);
  }

  text(column: string): string {
    return String(this.#present(column));
  }

  nullableText(column: string): string | null {
    return this.row[column] == null ? null : this.text(column);
  }

  number(column: string): number {
    const value = Number(this.#present(column));
    if (!Number.isFinite(value)) throw this.#unexpected(column, "is not a number");
    return value;
  }

  nullableNumber(column: string): number | null {
    return this.row[column] == null ? null : this.number(column);
  }

  boolean(column: string): boolean {
    return Boolean(this.#present(column));
  }

  date(column: string): Date {
    const value = this.#present(column);
    const date = value instanceof Date ? value : new Date(String(value));
    if (Number.isNaN(date.getTime())) throw this.#unexpected(column, "is not a time");
    return date;
  }

  nullableDate(column: string): Date | null {
    return this.row[column] == null ? null : this.date(column);
  }

  texts(column: string): string[] {
    const value = this.#present(column);
    if (!Array.isArray(value)) throw this.#unexpected(column, "is not a list");
    return value.map(String);
  }

  nullableTexts(column: string): string[] | null {
    return this.row[column] == null ? null : this.texts(column);
  }

  /** A text[] column each of whose entries is one of `allowed`. */
  textsOf<T extends string>(column: string, allowed: readonly T[]): T[] {
    return this.texts(column).map((value) => {
      const found = allowed.find((option) => option === value);
      if (found === undefined) throw this.#unexpected(column, `holds ${JSON.stringify(value)}, not one of ${allowed.join(", ")}`);
      return found;
    });
  }

  /** A jsonb column, parsed (a driver set to hand out text still gives the value). */
  json(column: string): unknown {
    const value = this.#present(column);
    return typeof value === "string" ? JSON.parse(value) : value;
  }

  /** A text column that holds one of `allowed` (the table's CHECK says so; a hand-edited row may not). */
  oneOf<T extends string>(column: string, allowed: readonly T[]): T {
    const value = this.text(column);
    const found = allowed.find((option) => option === value);
    if (found === undefined) throw this.#unexpected(column, `${JSON.stringify(value)} is not one of ${allowed.join(", ")}`);
    return found;
  }
}

/** The one row a statement that writes one row returns (`RETURNING`). */
export function onlyRow(rows: Row[], method: string): Row {
  const [row] = rows;
  if (row === undefined) throw new HostedDbError("UnexpectedData", `${method}: the database returned no row.`);
  return row;
}

/** A JSON value as a jsonb parameter: the drivers would send a JavaScript array as a Postgres array. */
export function jsonParameter(value: unknown): string | null {
  return value === null || value === undefined ? null : JSON.stringify(value);
}
