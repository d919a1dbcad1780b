/**
 * The node-limit cases of the JSON walks (session/json-shape.ts) for one limit: each walk gives its
 * "cannot tell" answer past `limit` nodes and still walks data of exactly `limit` nodes. `explicit: false`
 * calls the walks without a limit, so the cases state the default (`MAX_NODES`).
 */
import { expect, it } from "vitest";
import { copyJson, nestsDeeperThan, sameJson } from "../../src/session/json-shape.js";

export function nodeLimitCases(limit: number, explicit: boolean): void {
  const maxNodes = explicit ? limit : undefined;

  it(`nestsDeeperThan gives up (true) past ${limit} containers`, () => {
    // The array itself is one container: limit - 1 children make `limit`, one more is too many.
    const children = new Array(limit - 1).fill({});
    expect(nestsDeeperThan(children, 5, maxNodes)).toBe(false);
    children.push({});
    expect(nestsDeeperThan(children, 5, maxNodes)).toBe(true);
  });

  it(`sameJson calls walks past ${limit} pairs different`, () => {
    // The pair of arrays is one node and each pair of elements one more.
    const wide = new Array(limit - 1).fill(0);
    expect(sameJson(wide, wide, maxNodes)).toBe(true);
    wide.push(0);
    expect(sameJson(wide, wide, maxNodes)).toBe(false);
  });

  it(`copyJson refuses (undefined) more than ${limit} values`, () => {
    const wide = new Array(limit).fill(0);
    expect((copyJson(wide, maxNodes) as unknown[]).length).toBe(limit);
    wide.push(0);
    expect(copyJson(wide, maxNodes)).toBeUndefined();
  });
}
