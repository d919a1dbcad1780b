/**
 * The field kinds made of several fields (`field.record`, `field.rest`) and the sign-in family's schemas
 * (`actions/sign-in-input.ts`): what each parses, and what each refuses, with which error.
 */
import { describe, expect, it } from "vitest";
import { callbackInput, callbackPostInput, signInHttpFields, signInInput, webAuthnOptionsInput } from "../../src/actions/sign-in-input.js";
import { InvalidName, UnknownAction } from "../../src/errors.js";
import { field, inputSchema, requestFields } from "../../src/http/input.js";
import type { RequestInternal } from "../../src/types/internal.js";

describe("field.record", () => {
  const schema = inputSchema({ params: field.optional(field.record(field.string({ max: 5 }), { maxFields: 2 })) });

  it("parses an object, or a URLSearchParams, into a record of its own fields", () => {
    expect(schema.parse({ params: { a: "1", b: "22" } })).toEqual({ params: { a: "1", b: "22" } });
    expect(schema.parse({ params: new URLSearchParams("a=1&b=22") })).toEqual({ params: { a: "1", b: "22" } });
    expect(schema.parse({})).toEqual({ params: undefined });
  });

  it("refuses anything but an object, a value its parser refuses, more fields than its limit", () => {
    expect(() => schema.parse({ params: "a=1" })).toThrow("`params` must be an object.");
    expect(() => schema.parse({ params: ["1"] })).toThrow(UnknownAction);
    expect(() => schema.parse({ params: { a: "123456" } })).toThrow("`a` is longer than 5 characters.");
    expect(() => schema.parse({ params: { a: 1 } })).toThrow("`a` must be a string.");
    expect(() => schema.parse({ params: { a: "1", b: "2", c: "3" } })).toThrow("`params` has more than 2 fields.");
    const named = inputSchema({ params: field.record(field.value(), { maxFields: 0, refuse: InvalidName }) });
    expect(() => named.parse({ params: { a: 1 } })).toThrow(InvalidName);
  });

  it("keeps a field named __proto__ as a field, never as the record's prototype", () => {
    const parsed = schema.parse({ params: JSON.parse('{"__proto__": "x"}') as object }).params ?? {};
    expect(Object.hasOwn(parsed, "__proto__")).toBe(true);
    expect(Object.getPrototypeOf(parsed)).toBe(Object.prototype);
  });
});

describe("field.rest", () => {
  const schema = inputSchema({
    name: field.optional(field.string({ max: 10 })),
    others: field.rest(field.string({ max: 5 }), { except: ["csrfToken"], maxFields: 3 }),
  });

  it("is every own field of the input but `except` (declared fields too, unless excepted)", () => {
    expect(schema.parse({ name: "Ada", csrfToken: "t", a: "1" })).toEqual({ name: "Ada", others: { name: "Ada", a: "1" } });
    expect(schema.parse({})).toEqual({ name: undefined, others: {} });
    expect(Object.hasOwn(schema.parse(Object.create({ a: "1" }) as object).others, "a")).toBe(false);
  });

  it("refuses a value its parser refuses, more fields than its limit", () => {
    expect(() => schema.parse({ a: "123456" })).toThrow("`a` is longer than 5 characters.");
    expect(() => schema.parse({ a: "1", b: "2", c: "3", d: "4" })).toThrow("`others` has more than 3 fields.");
  });
});

describe("the sign-in family's schemas", () => {
  const request = (parts: Partial<RequestInternal>) => ({ method: "POST", query: {}, body: {}, ...parts }) as RequestInternal;

  it("signIn: link, email and the authorization parameters; over HTTP those come from the query, but callbackUrl", () => {
    const fields = signInHttpFields(
      request({ body: { csrfToken: "t", link: "true", email: "a@b.c" }, query: { prompt: "login", callbackUrl: "/x" } }),
    );
    expect(signInInput.parse(fields)).toEqual({ link: true, email: "a@b.c", authorizationParams: { prompt: "login" } });
    // A body's own authorizationParams never stand in for the query's.
    const forged = signInHttpFields(request({ body: { authorizationParams: { prompt: "none" } } }));
    expect(signInInput.parse(forged).authorizationParams).toEqual({});
    // auth.api's object: link as a boolean, the parameters as an object.
    expect(signInInput.parse({ link: true, authorizationParams: { prompt: "login" } })).toMatchObject({ link: true });
    // Only `true`/"true" links; an email that is not text is absent (the email route refuses it as before).
    expect(signInInput.parse({ link: "yes", email: 5 })).toEqual({ link: false, email: undefined, authorizationParams: undefined });
    expect(() => signInInput.parse({ authorizationParams: "prompt=login" })).toThrow(UnknownAction);
    expect(() => signInInput.parse({ authorizationParams: { prompt: 1 } })).toThrow(UnknownAction);
    expect(() => signInInput.parse({ authorizationParams: { prompt: "x".repeat(64 * 1024 + 1) } })).toThrow(UnknownAction);
  });

  it("callback: all of the query as the response's parameters; an email link's address and token", () => {
    expect(callbackInput.parse({ code: "c", state: "s", iss: "https://op" })).toEqual({
      params: { code: "c", state: "s", iss: "https://op" },
      email: undefined,
      token: undefined,
    });
    expect(callbackInput.parse({ email: "a@b.c", token: "t" })).toMatchObject({ email: "a@b.c", token: "t" });
    expect(() => callbackInput.parse({ code: { nested: true } })).toThrow(UnknownAction);
  });

  it("callbackPost: the posted fields but the form's own, and each route's own fields as they came", () => {
    const parsed = callbackPostInput.parse({ csrfToken: "t", callbackUrl: "/x", username: "ada", pin: 1234, code: "12 34" });
    expect(parsed.fields).toEqual({ username: "ada", pin: 1234, code: "12 34" });
    expect(parsed.code).toBe("12 34");
    expect(callbackPostInput.parse({ action: "authenticate", data: { id: "x" } })).toMatchObject({
      action: "authenticate",
      data: { id: "x" },
    });
  });

  it("webAuthnOptions: action, name, email as text (the route refuses a wrong action after its rate limit)", () => {
    expect(webAuthnOptionsInput.parse({ action: "register", name: "Ada" })).toEqual({ action: "register", name: "Ada", email: undefined });
    expect(webAuthnOptionsInput.parse({ action: ["register"] }).action).toBeUndefined();
  });

  it("requestFields: an operation's httpFields, else the body of a POST or the query of a GET", () => {
    const post = request({ body: { a: "1" }, query: { b: "2" } });
    expect(requestFields({}, post)).toBe(post.body);
    expect(requestFields({}, { ...post, method: "GET" })).toBe(post.query);
    expect(requestFields({ httpFields: () => ({ c: "3" }) }, post)).toEqual({ c: "3" });
  });
});
