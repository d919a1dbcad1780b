/**
 * The JSON walks of session data (session/json-shape.ts): depth, equality as JSON.stringify sees it, the
 * copy that refuses cycles, and the node limit with a small limit (past it each walk gives its "cannot
 * tell" answer, at it the walk completes). The default limit, a million nodes, is stated in
 * session-json-limits.test.ts.
 */
import { describe, expect, it } from "vitest";
import { copyJson, nestsDeeperThan, sameJson } from "../../src/session/json-shape.js";
import { nodeLimitCases } from "../helpers/json-walk-limits.js";

describe("the JSON walks", () => {
  it("nestsDeeperThan counts containers: a primitive is depth 0, {a: 1} depth 1", () => {
    expect(nestsDeeperThan(1, 0)).toBe(false);
    expect(nestsDeeperThan(null, 0)).toBe(false);
    expect(nestsDeeperThan({ a: 1 }, 0)).toBe(true);
    expect(nestsDeeperThan({ a: 1 }, 1)).toBe(false);
    expect(nestsDeeperThan({ a: [1, { b: 2 }] }, 2)).toBe(true);
    expect(nestsDeeperThan({ a: [1, { b: 2 }] }, 3)).toBe(false);
    expect(nestsDeeperThan([[], [[]]], 2)).toBe(true);
    expect(nestsDeeperThan([[], [[]]], 3)).toBe(false);
  });

  it("sameJson compares what JSON.stringify would write, up to key order", () => {
    expect(sameJson({ a: 1, b: [1, "x", null] }, { b: [1, "x", null], a: 1 })).toBe(true);
    expect(sameJson({ a: 1 }, { a: 2 })).toBe(false);
    expect(sameJson({ a: 1 }, { b: 1 })).toBe(false);
    expect(sameJson({ a: 1 }, { a: 1, b: 2 })).toBe(false);
    expect(sameJson({ a: 1, b: 2 }, { a: 1 })).toBe(false);
    expect(sameJson([1, 2], [1, 2, 3])).toBe(false);
    expect(sameJson([1, 2], [2, 1])).toBe(false);
    expect(sameJson({ 0: 1 }, [1])).toBe(false);
    expect(sameJson([1], { 0: 1 })).toBe(false);
    expect(sameJson({ a: {} }, { a: [] })).toBe(false);
    expect(sameJson({ a: { b: 1 } }, { a: { b: "1" } })).toBe(false);
    expect(sameJson(1, 1)).toBe(true);
    expect(sameJson("a", "b")).toBe(false);
    expect(sameJson(null, {})).toBe(false);
    expect(sameJson({}, null)).toBe(false);
  });

  it("sameJson treats values JSON drops or rewrites as JSON does", () => {
    expect(sameJson({ a: 1, f: () => 1, u: undefined, s: Symbol("s") }, { a: 1 })).toBe(true);
    expect(sameJson({ a: 1 }, { a: 1, u: undefined })).toBe(true);
    expect(sameJson([undefined, () => 1], [null, null])).toBe(true);
    expect(sameJson([undefined], [0])).toBe(false);
    expect(sameJson({ n: Number.NaN }, { n: null })).toBe(true);
    expect(sameJson({ n: Number.POSITIVE_INFINITY }, { n: null })).toBe(true);
    expect(sameJson({ n: 1 }, { n: null })).toBe(false);
    expect(sameJson({ d: new Date(0) }, { d: "1970-01-01T00:00:00.000Z" })).toBe(true);
    expect(sameJson({ d: { toJSON: () => ({ x: 1 }) } }, { d: { x: 1 } })).toBe(true);
    expect(sameJson({ d: { toJSON: "not a function", x: 1 } }, { d: { x: 1, toJSON: "not a function" } })).toBe(true);
  });

  it("sameJson calls BigInt different", () => {
    expect(sameJson({ a: 1n }, { a: 1n })).toBe(false);
    expect(sameJson(1n, 2)).toBe(false);
    expect(sameJson(2, 1n)).toBe(false);
  });

  it("copyJson copies plain data deeply and keeps anything else by reference", () => {
    const date = new Date(0);
    class Thing {}
    const thing = new Thing();
    const bare = Object.create(null) as Record<string, unknown>;
    bare.x = { y: 1 };
    const source = { a: { b: [1, { c: 2 }, null] }, date, thing, bare, s: "x", n: null };
    const copy = copyJson(source) as typeof source;
    expect(copy).toEqual(source);
    expect(copy.a).not.toBe(source.a);
    expect(copy.a.b).not.toBe(source.a.b);
    expect(Array.isArray(copy.a.b)).toBe(true);
    expect(copy.a.b[1]).not.toBe(source.a.b[1]);
    expect(copy.bare).not.toBe(bare);
    expect(copy.bare.x).not.toBe(bare.x);
    expect(copy.date).toBe(date);
    expect(copy.thing).toBe(thing);
    expect(copyJson([1, [2]])).toEqual([1, [2]]);
    expect(Array.isArray(copyJson([1, [2]]))).toBe(true);
    expect(copyJson(5)).toBe(5);
    expect(copyJson(null)).toBe(null);
  });

  it("copyJson refuses (undefined) a cycle, but copies a value shared by two branches", () => {
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = { back: cyclic };
    expect(copyJson(cyclic)).toBeUndefined();
    const shared = { x: 1 };
    expect(copyJson({ a: shared, b: shared })).toEqual({ a: { x: 1 }, b: { x: 1 } });
  });

  it("copyJson finds a cycle deeper than 64 levels", () => {
    const root: Record<string, unknown> = {};
    let current = root;
    for (let i = 0; i < 100; i++) {
      const next: Record<string, unknown> = {};
      current.next = next;
      current = next;
    }
    current.loop = root;
    expect(copyJson(root)).toBeUndefined();
    delete current.loop;
    expect(nestsDeeperThan(copyJson(root), 100)).toBe(true);
    expect(nestsDeeperThan(copyJson(root), 101)).toBe(false);
  });

  it("copyJson keeps sibling paths apart below 64 levels (a value repeated in siblings is no cycle)", () => {
    const leaf = { v: 1 };
    const value = { left: { a: leaf }, right: { b: leaf } };
    expect(copyJson(value)).toEqual({ left: { a: { v: 1 } }, right: { b: { v: 1 } } });
  });
});

describe("a JSON walk's node limit", () => {
  nodeLimitCases(8, true);

  it("copyJson's walk (data with a nested container) refuses more than the limit too", () => {
    // Six values in the root (one the nested array) and two in the nested array: eight; the root alone stays
    // under the limit, so only the walk's count can refuse a ninth value inside.
    const nested = [0, 0];
    const wide: unknown[] = [nested, 0, 0, 0, 0, 0];
    expect(copyJson(wide, 8)).toEqual(wide);
    nested.push(0);
    expect(copyJson(wide, 8)).toBeUndefined();
  });
});

describe("copyJson of flat data (no value is a container)", () => {
  it("copies an object's claims and an array's items into a new object or array, with the same values", () => {
    const claims = { sub: "u1", n: 2, ok: true, none: null, gone: undefined };
    const copy = copyJson(claims);
    expect(copy).toStrictEqual(claims);
    expect(copy).not.toBe(claims);
    const items = [1, "two", null];
    const itemsCopy = copyJson(items);
    expect(Array.isArray(itemsCopy)).toBe(true);
    expect(itemsCopy).toStrictEqual(items);
    expect(itemsCopy).not.toBe(items);
    expect(copyJson({})).toStrictEqual({});
    expect(copyJson([])).toStrictEqual([]);
  });
});
