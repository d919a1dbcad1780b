/**
 * The default node limit of the JSON walks (session/json-shape.ts): a million nodes. Each case walks a
 * million nodes (seconds under mutation-testing instrumentation), so this file is not in the `session`
 * mutation group; `session/json-shape.test.ts` states the same rules with a small limit for it.
 */
import { describe, expect, it } from "vitest";
import { MAX_NODES } from "../../src/session/json-shape.js";
import { nodeLimitCases } from "../helpers/json-walk-limits.js";

describe("the default node limit of the JSON walks", () => {
  it("is a million nodes", () => {
    expect(MAX_NODES).toBe(1_000_000);
  });
  nodeLimitCases(MAX_NODES, false);
});
