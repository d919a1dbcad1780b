/**
 * Issue 19, item 7: bounded session data. `POST /session` data has a depth limit (400,
 * `SessionDataTooDeep`) and a size limit (413, `SessionDataTooLarge`) checked before any callback sees it,
 * and the session read decides whether to re-issue the cookie without `JSON.stringify` (which overflows the
 * stack on deep data). Attacks are sent through `Auth()` the way a browser script would.
 */
import { describe, expect, it } from "vitest";
import { SESSION_DATA_MAX_BYTES, SESSION_DATA_MAX_DEPTH } from "../../src/actions/session.js";
import { decode } from "../../src/jwt.js";
import Credentials from "../../src/providers/credentials.js";
import { copyJson, nestsDeeperThan, sameJson } from "../../src/session/json-shape.js";
import type { AuthConfig } from "../../src/types/config.js";
import { authClient } from "../helpers/auth-client.js";

const secret = "session-data-test-secret-0123456789abcdef";

/** `[[[…]]]` nested `depth` levels, as JSON text (JSON.stringify itself cannot write it). */
const deepArrayText = (depth: number) => `${"[".repeat(depth)}${"]".repeat(depth)}`;

/** The value of {@link deepArrayText}, built without recursion. */
function deepArray(depth: number): unknown[] {
  const root: unknown[] = [];
  let current = root;
  for (let i = 1; i < depth; i++) {
    const next: unknown[] = [];
    current.push(next);
    current = next;
  }
  return root;
}

function setup(overrides: Partial<AuthConfig> = {}) {
  const updates: unknown[] = [];
  const errors: string[] = [];
  const config: AuthConfig = {
    secret,
    trustHost: true,
    providers: [
      Credentials({ credentials: { username: {} }, authorize: (c) => (c.username ? { id: "u1", name: String(c.username) } : null) }),
    ],
    callbacks: {
      // An app that copies whatever the client sends into the token: the case the limits exist for.
      jwt({ token, trigger, session }) {
        if (trigger === "update") {
          updates.push(session);
          return { ...token, data: session };
        }
        return token;
      },
    },
    logger: { error: (error) => errors.push(error.name) },
    ...overrides,
  };
  const client = authClient(config);
  return { client, updates, errors };
}

async function signIn(client: ReturnType<typeof authClient>) {
  const csrfToken = await client.csrf();
  const response = await client.send("/auth/callback/credentials", { form: { csrfToken, username: "ada" } });
  expect(response.status).toBe(302);
  return csrfToken;
}

function postSession(client: ReturnType<typeof authClient>, body: string) {
  return client.send("/auth/session", { method: "POST", body, headers: { "content-type": "application/json" } });
}

describe("POST /session data limits", () => {
  it("data 30,000 levels deep (within the body limit) is 400 SessionDataTooDeep; no callback sees it", async () => {
    const { client, updates, errors } = setup();
    const csrfToken = await signIn(client);
    const response = await postSession(client, `{"csrfToken":"${csrfToken}","data":${deepArrayText(30_000)}}`);
    expect(response.status).toBe(400);
    expect(errors).toContain("SessionDataTooDeep");
    expect(updates).toEqual([]);
    expect(response.setCookies.some((c) => c.name === "authlib.session-token")).toBe(false);
    expect((await client.session())?.user.name).toBe("ada");
  });

  it("a 200,000-deep payload crashes nothing: 400, and the session still works", async () => {
    const { client, updates } = setup();
    const csrfToken = await signIn(client);
    const response = await postSession(client, `{"csrfToken":"${csrfToken}","data":${deepArrayText(200_000)}}`);
    expect(response.status).toBe(400);
    expect(updates).toEqual([]);
    expect((await client.session())?.user.name).toBe("ada");
  });

  it(`data of more than ${SESSION_DATA_MAX_BYTES} bytes is 413 SessionDataTooLarge; no callback sees it`, async () => {
    const { client, updates, errors } = setup();
    const csrfToken = await signIn(client);
    const response = await postSession(client, JSON.stringify({ csrfToken, data: { note: "é".repeat(SESSION_DATA_MAX_BYTES / 2) } }));
    expect(response.status).toBe(413);
    expect(errors).toContain("SessionDataTooLarge");
    expect(updates).toEqual([]);
  });

  it("data at the limits is accepted", async () => {
    const { client, updates } = setup();
    const csrfToken = await signIn(client);
    const deepest = deepArrayText(SESSION_DATA_MAX_DEPTH);
    expect((await postSession(client, `{"csrfToken":"${csrfToken}","data":${deepest}}`)).status).toBe(200);
    const largest = { note: "x".repeat(SESSION_DATA_MAX_BYTES - '{"note":""}'.length) };
    expect((await postSession(client, JSON.stringify({ csrfToken, data: largest }))).status).toBe(200);
    expect(updates).toHaveLength(2);
    expect((await client.session())?.user.name).toBe("ada");
  });

  it("one level more than the depth limit is refused", async () => {
    const { client } = setup();
    const csrfToken = await signIn(client);
    const response = await postSession(client, `{"csrfToken":"${csrfToken}","data":${deepArrayText(SESSION_DATA_MAX_DEPTH + 1)}}`);
    expect(response.status).toBe(400);
  });
});

describe("the session read never serialises the token to compare it", () => {
  it("a token carrying 200,000-deep data (an app's own jwt.decode) is read, and not re-issued when unchanged", async () => {
    const deep = deepArray(200_000);
    const { client, errors } = setup({
      session: { updateAge: 3600 },
      jwt: { decode: async (params) => ({ ...(await decode(params)), deep }) },
    });
    await signIn(client);
    const response = await client.send("/auth/session");
    expect(response.status).toBe(200);
    expect(((await response.json()) as { user: { name: string } }).user.name).toBe("ada");
    expect(response.setCookies.some((c) => c.name === "authlib.session-token")).toBe(false);
    expect(errors).toEqual([]);
  });
});

describe("json-shape walks", () => {
  it("measure depth without recursion", () => {
    expect(nestsDeeperThan("text", 0)).toBe(false);
    expect(nestsDeeperThan({ a: 1 }, 0)).toBe(true);
    expect(nestsDeeperThan({ a: [{}] }, 3)).toBe(false);
    expect(nestsDeeperThan({ a: [{}] }, 2)).toBe(true);
    expect(nestsDeeperThan(deepArray(200_000), 32)).toBe(true);
    expect(nestsDeeperThan(deepArray(200_000), 200_000)).toBe(false);
  });

  it("compare as JSON would: key order, undefined members, toJSON, non-finite numbers", () => {
    expect(sameJson({ a: 1, b: [1, "x"] }, { b: [1, "x"], a: 1 })).toBe(true);
    expect(sameJson({ a: 1 }, { a: 1, b: undefined, f: () => 1 })).toBe(true);
    expect(sameJson({ when: "1970-01-01T00:00:00.000Z" }, { when: new Date(0) })).toBe(true);
    expect(sameJson([undefined], [null])).toBe(true);
    expect(sameJson({ n: Number.NaN }, { n: null })).toBe(true);
    expect(sameJson({ a: 1 }, { a: 2 })).toBe(false);
    expect(sameJson({ a: [1] }, { a: { 0: 1 } })).toBe(false);
    expect(sameJson({ a: 1 }, { b: 1 })).toBe(false);
    expect(sameJson({ a: 1, b: 2 }, { a: 1, c: 2 })).toBe(false);
    expect(sameJson({ a: 1 }, { a: 1, b: 2 })).toBe(false);
    expect(sameJson({ a: 1, b: 2 }, { a: 1 })).toBe(false);
    expect(sameJson({ a: 1, b: undefined }, { a: 1, c: () => 1 })).toBe(true);
    // A key JSON does not write (not enumerable) is not the same as one it writes, even with equal counts.
    const hidden = Object.defineProperty({ b: 1 }, "a", { value: 1, enumerable: false });
    expect(sameJson({ a: 1 }, hidden)).toBe(false);
    expect(sameJson({ b: 1 }, hidden)).toBe(true);
    // An inherited key is not an own one.
    expect(sameJson({ a: 1 }, Object.create({ a: 1 }))).toBe(false);
    expect(sameJson({ big: 1n }, { big: 1n })).toBe(false);
    expect(sameJson(deepArray(200_000), deepArray(200_000))).toBe(true);
    const changedDeep = deepArray(200_000);
    expect(sameJson(deepArray(200_000), [...changedDeep, 1])).toBe(false);
  });

  it("copy deep data without recursion; a cycle is 'cannot tell'", () => {
    const token = { sub: "u1", nested: { list: [1, { x: "y" }] }, deep: deepArray(200_000) };
    const copy = copyJson(token) as typeof token;
    expect(copy === token).toBe(false);
    expect(copy.nested === token.nested).toBe(false);
    expect(sameJson(copy, token)).toBe(true);
    token.nested.list.push(2);
    expect(sameJson(copy, token)).toBe(false);
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = cyclic;
    expect(copyJson(cyclic)).toBeUndefined();
  });
});
