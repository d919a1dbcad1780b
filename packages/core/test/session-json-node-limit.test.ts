/**
 * The node limit of the JSON walks (session/json-shape.ts) with a small limit: past it each walk gives its
 * "cannot tell" answer, at it the walk completes. The default limit is stated in session-json-limits.test.ts.
 */
import { describe } from "vitest";
import { nodeLimitCases } from "./helpers/json-walk-limits.js";

describe("a JSON walk's node limit", () => {
  nodeLimitCases(8, true);
});
