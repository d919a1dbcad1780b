/**
 * A body declared as JSON is read only as JSON (http/request.ts): when it does not parse, it is an empty
 * body, never re-read under another format its content type also names.
 */
import { expect, it } from "vitest";
import { parseRequest } from "../../src/http/request.js";
import { operationsOf } from "../../src/kernel/features.js";
import { createRouter } from "../../src/kernel/router.js";
import type { AuthConfig } from "../../src/types/config.js";

it("a malformed JSON body is empty even when its content type also names a form", async () => {
  const request = new Request("https://app.example/auth/callback/credentials", {
    method: "POST",
    body: "csrfToken=abc&password=x",
    headers: { "content-type": "application/json; profile=application/x-www-form-urlencoded" },
  });
  const paths = createRouter(operationsOf({ providers: [] } as unknown as AuthConfig));
  expect((await parseRequest(request, "/auth", paths)).body).toEqual({});
});
