/**
 * The node limit of the JSON walks (session/json-shape.ts): each walk gives its "cannot tell" answer past
 * MAX_NODES nodes and walks data of exactly MAX_NODES nodes. Each case walks a million nodes (seconds under
 * mutation-testing instrumentation), so this file is not in the `session` mutation group.
 */
import { describe, expect, it } from "vitest";
import { copyJson, MAX_NODES, nestsDeeperThan, sameJson } from "../src/session/json-shape.js";

describe("the node limit of the JSON walks", () => {
  it("nestsDeeperThan gives up (true) past MAX_NODES containers", () => {
    // The array itself is one container: MAX_NODES - 1 children make MAX_NODES, one more is too many.
    const children = new Array(MAX_NODES - 1).fill({});
    expect(nestsDeeperThan(children, 5)).toBe(false);
    children.push({});
    expect(nestsDeeperThan(children, 5)).toBe(true);
  });

  it("sameJson calls walks past MAX_NODES different", () => {
    // The pair of arrays is one node and each pair of elements one more.
    const wide = new Array(MAX_NODES - 1).fill(0);
    expect(sameJson(wide, wide)).toBe(true);
    wide.push(0);
    expect(sameJson(wide, wide)).toBe(false);
  });

  it("copyJson refuses (undefined) more than MAX_NODES values", () => {
    const wide = new Array(MAX_NODES).fill(0);
    expect((copyJson(wide) as unknown[]).length).toBe(MAX_NODES);
    wide.push(0);
    expect(copyJson(wide)).toBeUndefined();
  });
});
