/**
 * The admin methods of `HostedDbAdapter` (core's `AdminAdapterMethods`), on the tables of migration 10: a
 * page of users in id order (byte order: `COLLATE "C"`, so a cursor is stable whatever the database's
 * locale), searched by a case-insensitive substring of the address or the name (`%` and `_` in the text
 * match themselves), filtered by a live ban; and one ban per user, written with an upsert, which goes with
 * the user (foreign key). An expired ban is answered as it is (core decides it no longer counts) until
 * `authlib db prune` deletes it.
 *
 * @module admin
 */
import type { AdminAdapterMethods, ListedUser, UserBan } from "@authlib/core";
import type { HostedDbClient } from "./client.js";
import type { Row } from "./oauth-rows.js";
import { quoteIdentifier } from "./sql.js";

/** The bans table of `client`'s branch, schema-qualified and quoted. */
export function bansTable(client: HostedDbClient): string {
  return `${quoteIdentifier(client.branch)}.${quoteIdentifier("authlib_user_bans")}`;
}

const BAN_COLUMNS = `"user_id", "reason", "banned_by", "created_at", "expires_at"`;

/** `text` with `\`, `%` and `_` escaped for a LIKE pattern. */
function likeText(text: string): string {
  return text.replace(/[\\%_]/g, (char) => `\\${char}`);
}

/** Every admin method of `Adapter`, over `client`. */
export function adminMethods(client: HostedDbClient): Required<AdminAdapterMethods> {
  const users = client.db.authlib_users;
  const bans = bansTable(client);
  return {
    async listUsers({ search, banned, after, limit, now }) {
      const parameters: unknown[] = [now];
      const where: string[] = [];
      if (after !== undefined) {
        parameters.push(after);
        where.push(`u."id" COLLATE "C" > $${parameters.length}`);
      }
      if (search) {
        parameters.push(`%${likeText(search)}%`);
        where.push(`(u."email" ILIKE $${parameters.length} OR u."name" ILIKE $${parameters.length})`);
      }
      if (banned !== undefined) where.push(banned ? `b."user_id" IS NOT NULL` : `b."user_id" IS NULL`);
      parameters.push(limit);
      const { rows } = await client.query<Row>(
        `SELECT ${users.selectColumns("u", "u.")}, b."user_id" AS "b.user_id", b."reason" AS "b.reason", b."banned_by" AS "b.banned_by",
           b."created_at" AS "b.created_at", b."expires_at" AS "b.expires_at"
         FROM ${users.sqlName} u
         LEFT JOIN ${bans} b ON b."user_id" = u."id" AND (b."expires_at" IS NULL OR b."expires_at" > $1)
         ${where.length > 0 ? `WHERE ${where.join(" AND ")}` : ""}
         ORDER BY u."id" COLLATE "C"
         LIMIT $${parameters.length}`,
        parameters,
      );
      return rows.map((row): ListedUser => {
        const user = users.fromRow(row, "u.");
        return {
          user: {
            id: user.id,
            email: user.email ?? null,
            emailVerified: user.emailVerified ?? null,
            name: user.name ?? null,
            image: user.image ?? null,
            ...(user.role ? { role: user.role } : {}),
          },
          ban: row["b.user_id"] == null ? null : toBan(row, "b."),
        };
      });
    },
    async getUserBan(userId) {
      const { rows } = await client.query<Row>(`SELECT ${BAN_COLUMNS} FROM ${bans} WHERE "user_id" = $1`, [userId]);
      return rows[0] === undefined ? null : toBan(rows[0]);
    },
    async saveUserBan(ban) {
      await client.query(
        `INSERT INTO ${bans} (${BAN_COLUMNS}) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT ("user_id") DO UPDATE SET "reason" = EXCLUDED."reason", "banned_by" = EXCLUDED."banned_by",
           "created_at" = EXCLUDED."created_at", "expires_at" = EXCLUDED."expires_at"`,
        [ban.userId, ban.reason, ban.bannedBy, ban.createdAt, ban.expiresAt],
      );
    },
    async deleteUserBan(userId) {
      await client.query(`DELETE FROM ${bans} WHERE "user_id" = $1`, [userId]);
    },
  };
}

/** A timestamp column as a `Date` (drivers answer a `Date` or its text). */
function dateOf(value: unknown): Date {
  return value instanceof Date ? value : new Date(String(value));
}

/** A ban of a row (its columns prefixed with `prefix` in a joined row). */
function toBan(row: Row, prefix = ""): UserBan {
  const expires = row[`${prefix}expires_at`];
  const text = (name: string) => {
    const value = row[`${prefix}${name}`];
    return typeof value === "string" ? value : null;
  };
  return {
    userId: String(row[`${prefix}user_id`]),
    reason: text("reason"),
    bannedBy: text("banned_by"),
    createdAt: dateOf(row[`${prefix}created_at`]),
    expiresAt: expires == null ? null : dateOf(expires),
  };
}
