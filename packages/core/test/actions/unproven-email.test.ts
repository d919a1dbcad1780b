/**
 * An email no one proved is data, never identity (actions/unproven-email.ts), driven directly: which
 * claims and `trustEmail` settings make a provider vouch for an address, what the profile's user keeps of
 * it, and how a proven address is claimed from a holder who never proved it ("proof wins").
 */
import { describe, expect, it } from "vitest";
import type { AddressStore } from "../../src/adapter/capabilities.js";
import type { OAuthConfig } from "../../src/providers/types.js";
import { memorySessionStore } from "../../src/session/memory-store.js";
import { claimProvenAddress } from "../../src/sign-in/proven-address.js";
import { providerVouchesForEmail, withProvenEmail } from "../../src/sign-in/unproven-email.js";
import type { AdapterUser } from "../../src/types/adapters.js";
import type { Profile, User } from "../../src/types/config.js";
import type { InternalOptions } from "../../src/types/internal.js";
import type { SessionRegistry } from "../../src/types/session-registry.js";
import { sessionRecord } from "../helpers/session-registry-conformance.js";

function provider(trustEmail?: OAuthConfig["trustEmail"]): OAuthConfig {
  return { id: "p", name: "P", type: "oauth", clientId: "c", ...(trustEmail === undefined ? {} : { trustEmail }) } as OAuthConfig;
}

/** A profile whose `email_verified` claim is `value`, as a provider sent it (Apple and Cognito send strings). */
function claim(value: unknown): Profile {
  return { email_verified: value } as Profile;
}

describe("which providers vouch for a profile's email", () => {
  it("email_verified true, as a boolean or as Apple's and Cognito's string, vouches without trustEmail", () => {
    expect(providerVouchesForEmail(provider(), { email_verified: true })).toBe(true);
    expect(providerVouchesForEmail(provider(), claim("true"))).toBe(true);
    expect(providerVouchesForEmail(provider(false), claim("true"))).toBe(true);
  });

  it("an explicit email_verified false, boolean or string, beats trustEmail (flag or function)", () => {
    for (const value of [false, "false"]) {
      expect(providerVouchesForEmail(provider(), claim(value))).toBe(false);
      expect(providerVouchesForEmail(provider(true), claim(value))).toBe(false);
      expect(
        providerVouchesForEmail(
          provider(() => true),
          claim(value),
        ),
      ).toBe(false);
    }
  });

  it("without a claim, only trustEmail: true or a trustEmail function answering true vouches", () => {
    expect(providerVouchesForEmail(provider(), {})).toBe(false);
    expect(providerVouchesForEmail(provider(), undefined)).toBe(false);
    expect(providerVouchesForEmail(provider(false), {})).toBe(false);
    expect(providerVouchesForEmail(provider(true), {})).toBe(true);
    expect(providerVouchesForEmail(provider(true), undefined)).toBe(true);
    expect(
      providerVouchesForEmail(
        provider(() => true),
        {},
      ),
    ).toBe(true);
    expect(
      providerVouchesForEmail(
        provider(() => false),
        {},
      ),
    ).toBe(false);
  });

  it('a claim that is neither true nor false ("yes", 1, "TRUE") is no claim: trustEmail decides', () => {
    for (const value of ["yes", 1, "TRUE", "", null]) {
      expect(providerVouchesForEmail(provider(), claim(value))).toBe(false);
      expect(providerVouchesForEmail(provider(true), claim(value))).toBe(true);
    }
  });

  it("a trustEmail function must answer exactly true (a truthy value is not a vouch) and sees the profile, or {} without one", () => {
    const seen: unknown[] = [];
    const truthy = ((profile: Profile) => {
      seen.push(profile);
      return "yes";
    }) as unknown as (profile: Profile) => boolean;
    const profile: Profile = { email: "ada@example.com", hd: "example.com" };
    expect(providerVouchesForEmail(provider(truthy), profile)).toBe(false);
    expect(providerVouchesForEmail(provider(truthy), undefined)).toBe(false);
    expect(seen).toEqual([profile, {}]);
    expect(
      providerVouchesForEmail(
        provider((p: Profile) => p.hd === "example.com"),
        profile,
      ),
    ).toBe(true);
    expect(
      providerVouchesForEmail(
        provider((p: Profile) => p.hd === "example.com"),
        { hd: "evil.example" },
      ),
    ).toBe(false);
  });

  it('trustEmail: "never" wins over every claim and every profile: the provider never vouches', () => {
    for (const profile of [{ email_verified: true }, claim("true"), {}, undefined]) {
      expect(providerVouchesForEmail(provider("never"), profile)).toBe(false);
    }
    const user = withProvenEmail(provider("never"), { email_verified: true }, { id: "1", email: "Ada@Example.com" });
    expect([user.email, user.emailVerified]).toEqual([null, null]);
  });

  it("a trustEmail that is truthy but not the flag true (a string from an env variable) does not vouch", () => {
    expect(providerVouchesForEmail(provider("true" as unknown as boolean), {})).toBe(false);
    expect(providerVouchesForEmail(provider(1 as unknown as boolean), {})).toBe(false);
  });
});

describe("the profile's user as authlib trusts it", () => {
  const user: User = { id: "u1", name: "Ada", email: "Ada@Example.COM", image: "https://example.com/a.png" };

  it("a vouched address is kept lower-cased, with emailVerified the time of this sign-in", () => {
    const before = Date.now();
    const proven = withProvenEmail(provider(), { email_verified: true }, user);
    expect(proven).toMatchObject({ id: "u1", name: "Ada", image: "https://example.com/a.png", email: "ada@example.com" });
    expect(proven.emailVerified).toBeInstanceOf(Date);
    expect((proven.emailVerified as Date).getTime()).toBeGreaterThanOrEqual(before);
    expect((proven.emailVerified as Date).getTime()).toBeLessThanOrEqual(Date.now());
  });

  it("an address no one vouched for becomes null, and so does emailVerified; the rest of the user is kept", () => {
    for (const profile of [{ email_verified: false }, {}, undefined]) {
      const unproven = withProvenEmail(provider(), profile, user);
      expect(unproven).toEqual({ id: "u1", name: "Ada", image: "https://example.com/a.png", email: null, emailVerified: null });
    }
  });

  it("a vouching provider without an address gives email null and emailVerified null", () => {
    for (const email of [null, undefined, ""]) {
      const none = withProvenEmail(provider(true), { email_verified: true }, { id: "u2", email });
      expect(none).toEqual({ id: "u2", email: null, emailVerified: null });
    }
  });
});

describe("proof wins: claiming a proven address", () => {
  function store(holder: AdapterUser | null, options: { sessions?: boolean; registry?: SessionRegistry } = {}) {
    const calls: Array<[string, unknown]> = [];
    const users = {
      getUserByEmail: async (email: string) => {
        calls.push(["getUserByEmail", email]);
        return holder;
      },
      updateUser: async (user: Partial<AdapterUser> & Pick<AdapterUser, "id">) => {
        calls.push(["updateUser", user]);
        return { ...holder, ...user } as AdapterUser;
      },
      ...(options.sessions === false
        ? {}
        : {
            deleteSessionsByUserId: async (userId: string) => {
              calls.push(["deleteSessionsByUserId", userId]);
            },
          }),
    } as AddressStore;
    const warnings: string[] = [];
    const events: unknown[] = [];
    const internal = {
      logger: { warn: (code: string) => void warnings.push(code), debug: () => {}, error: () => {} },
      events: { updateUser: (message: unknown) => void events.push(message), sessionRevoked: () => {} },
      session: { strategy: "jwt" },
      sessionRegistry: options.registry,
      instanceState: {},
    } as unknown as InternalOptions;
    return { users, calls, warnings, events, internal };
  }

  it("nobody holds the address: null, nothing changed", async () => {
    const s = store(null);
    expect(await claimProvenAddress(s.internal, s.users, "ada@example.com")).toBeNull();
    expect(s.calls).toEqual([["getUserByEmail", "ada@example.com"]]);
    expect(s.events).toEqual([]);
  });

  it("a holder who proved the address keeps it and is the user returned", async () => {
    const holder: AdapterUser = { id: "h", email: "ada@example.com", emailVerified: new Date(0) };
    const s = store(holder);
    expect(await claimProvenAddress(s.internal, s.users, "ada@example.com")).toBe(holder);
    expect(s.calls).toEqual([["getUserByEmail", "ada@example.com"]]);
    expect(s.events).toEqual([]);
  });

  it("a holder without proof loses the address and their sessions; the prover gets no user (null)", async () => {
    const holder: AdapterUser = { id: "h", email: "ada@example.com", emailVerified: null, name: "Squatter" };
    const s = store(holder);
    expect(await claimProvenAddress(s.internal, s.users, "ada@example.com")).toBeNull();
    expect(s.calls).toEqual([
      ["getUserByEmail", "ada@example.com"],
      ["updateUser", { id: "h", email: null }],
      ["deleteSessionsByUserId", "h"],
    ]);
    expect(s.events).toEqual([{ user: { id: "h", email: null, emailVerified: null, name: "Squatter" } }]);
    expect(s.warnings).toEqual([]);
  });

  it("an adapter that cannot delete a user's sessions: the address is still released and the operator is warned", async () => {
    const holder: AdapterUser = { id: "h", email: "ada@example.com", emailVerified: null };
    const s = store(holder, { sessions: false });
    expect(await claimProvenAddress(s.internal, s.users, "ada@example.com")).toBeNull();
    expect(s.calls).toEqual([
      ["getUserByEmail", "ada@example.com"],
      ["updateUser", { id: "h", email: null }],
    ]);
    expect(s.warnings).toEqual(["sessions-not-ended"]);
    expect(s.events).toEqual([{ user: { id: "h", email: null, emailVerified: null } }]);
  });

  it("JWT sessions with a registry: the holder's registered sessions end too, other users' stay", async () => {
    const holder: AdapterUser = { id: "h", email: "ada@example.com", emailVerified: null };
    const registry = memorySessionStore();
    const held = [sessionRecord("h"), sessionRecord("h")];
    for (const record of held) await registry.create(record);
    const other = sessionRecord("someone-else");
    await registry.create(other);
    const s = store(holder, { sessions: false, registry });
    expect(await claimProvenAddress(s.internal, s.users, "ada@example.com")).toBeNull();
    for (const record of held) expect(await registry.get("h", record.id)).toBeNull();
    expect(await registry.listByUser("someone-else")).toEqual([other]);
    expect(s.warnings).toEqual([]);
  });
});
