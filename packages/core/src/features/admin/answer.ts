/**
 * What every admin operation shares: the JSON answer, the target user (or `UserNotFound`), and the audit
 * row (the admin as the actor, the user as the target; never a secret).
 *
 * @module features/admin/answer
 */
import { recordAuditEvent } from "../../audit/index.js";
import { UserNotFound } from "../../errors.js";
import { noStoreHeaders } from "../../http/response.js";
import type { AdapterUser, UserBan } from "../../types/adapters.js";
import type { AdminUserView } from "../../types/admin.js";
import type { InternalOptions, RequestInternal, ResponseInternal } from "../../types/internal.js";
import type { AuditEventType } from "../../types/telemetry.js";
import type { AdminStore } from "./store.js";

const json = { "Content-Type": "application/json", ...noStoreHeaders };

/** A JSON answer of `body`. */
export function adminAnswer<Body>(body: Body): ResponseInternal<Body> {
  return { body, headers: json };
}

/** The user `userId`, or `UserNotFound`. */
export async function targetOf(store: Pick<AdminStore, "getUser">, userId: string): Promise<AdapterUser> {
  const user = await store.getUser(userId);
  if (!user) throw new UserNotFound("No user has this id.");
  return user;
}

/** The audit row of an admin's act on a user: the admin is the row's user, the target in `detail`. */
export function audited(
  options: Pick<InternalOptions, "audit">,
  request: RequestInternal,
  type: AuditEventType,
  adminId: string,
  targetId: string | null,
  more?: string,
): void {
  const detail = [targetId && `target=${targetId}`, more].filter(Boolean).join(" ");
  recordAuditEvent(options, request, { type, userId: adminId, provider: null, detail: detail || null });
}

/** A user as an admin sees them: never a hash or a token, whatever else the adapter keeps on the row. */
export function userView(user: AdapterUser, ban: UserBan | null): AdminUserView {
  const role = (user as { role?: unknown }).role;
  return {
    id: user.id,
    email: user.email ?? null,
    name: user.name ?? null,
    image: user.image ?? null,
    emailVerified: user.emailVerified ?? null,
    role: typeof role === "string" ? role : null,
    ban,
  };
}
