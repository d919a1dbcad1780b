/**
 * Typed input of an operation: a schema of fields, each a parser that turns what came (a form's string, a
 * JSON value, an `auth.api` argument) into a typed value or refuses it with a named `AuthError`. The
 * pipeline parses an operation's input once (`kernel/pipeline.ts`), so a form post, a JSON body and an
 * in-process call are held to the same rules.
 *
 * Limits are refusals, never silent cuts: a value over its `max` is refused, as is a required field
 * that is absent; a field the schema does not declare is ignored (only own properties are read).
 *
 * @module http/input
 */
import { type AuthError, UnknownAction } from "../errors.js";
import type { RequestInternal } from "../types/internal.js";
import type { InputSchema, OperationDeclaration } from "../types/operation.js";

/**
 * Parses one field's value (`undefined` when absent) or throws. `fields` is the whole input it came in,
 * for a field made of the input's other fields (`field.rest`).
 */
export type FieldParser<T> = (value: unknown, name: string, fields: object) => T;

/** The error class a field refuses with: `UnknownAction` (400) unless the operation always answered another. */
export type Refusal = new (message: string) => AuthError;

/** A string field: at most `max` characters (UTF-16 units); `refuse` names the error of a value it refuses. */
export interface StringRule extends RefusalRule {
  max: number;
}

/** The typed object of a schema's fields (an optional field's value may be `undefined`). */
export type Fields<F extends Record<string, FieldParser<unknown>>> = { [K in keyof F]: ReturnType<F[K]> };

/** How a field refuses: its error class (default `UnknownAction`), and a message of its own (default: what is wrong). */
export interface RefusalRule {
  refuse?: Refusal;
  message?: string;
}

function refuse(rule: RefusalRule | undefined, message: string): never {
  throw new (rule?.refuse ?? UnknownAction)(rule?.message ?? message);
}

/** A string of at most `rule.max` characters; absent, `null` or not a string is refused. */
function string(rule: StringRule): FieldParser<string> {
  return (value, name) => {
    if (value === undefined || value === null) return refuse(rule, `\`${name}\` is missing.`);
    if (typeof value !== "string") return refuse(rule, `\`${name}\` must be a string.`);
    if (value.length > rule.max) return refuse(rule, `\`${name}\` is longer than ${rule.max} characters.`);
    return value;
  };
}

/** `parser`, or `undefined` when the field is absent (or `null` in JSON). */
function optional<T>(parser: FieldParser<T>): FieldParser<T | undefined> {
  return (value, name, fields) => (value === undefined || value === null ? undefined : parser(value, name, fields));
}

const TRUE_VALUES: ReadonlySet<unknown> = new Set([true, "true", "on", "1"]);
const FALSE_VALUES: ReadonlySet<unknown> = new Set([undefined, null, false, "false", "off", "0", ""]);

/** A yes/no field: a JSON boolean, or a form's `true`/`on`/`1` (a checkbox) and `false`/`off`/`0`/empty/absent. */
function flag(rule?: RefusalRule): FieldParser<boolean> {
  return (value, name) => {
    if (TRUE_VALUES.has(value)) return true;
    if (FALSE_VALUES.has(value)) return false;
    return refuse(rule, `\`${name}\` must be true or false.`);
  };
}

/** One of `values` (a form's string as it is). */
function oneOf<const L extends readonly string[]>(values: L, rule?: RefusalRule): FieldParser<L[number]> {
  return (value, name) => {
    const found = values.find((candidate) => candidate === value);
    if (found === undefined) return refuse(rule, `\`${name}\` must be one of ${values.join(", ")}.`);
    return found;
  };
}

/** A number of at least `min` and at most `max`: a JSON number, or a form's or query's decimal string. */
function number(rule: RefusalRule & { min: number; max: number }): FieldParser<number> {
  return (value, name) => {
    const parsed = typeof value === "number" ? value : typeof value === "string" && value.trim() !== "" ? Number(value) : Number.NaN;
    if (!(Number.isFinite(parsed) && parsed >= rule.min && parsed <= rule.max))
      return refuse(rule, `\`${name}\` must be a number from ${rule.min} to ${rule.max}.`);
    return parsed;
  };
}

/** A value taken as it is, for data the operation checks itself (session data, a WebAuthn response). */
function value(): FieldParser<unknown> {
  return (given) => given;
}

/** A field made of several: at most `maxFields` of them (default: no limit), the names in `except` left out. */
export interface RecordRule extends RefusalRule {
  except?: readonly string[];
  maxFields?: number;
}

/** The own enumerable fields of `source` but `rule.except`, each parsed by `parser` under its own name. */
function collect<T>(source: object, parser: FieldParser<T>, rule: RecordRule, name: string): Record<string, T> {
  const except = rule.except ?? [];
  const names = Object.keys(source).filter((key) => !except.includes(key));
  if (rule.maxFields !== undefined && names.length > rule.maxFields)
    return refuse(rule, `\`${name}\` has more than ${rule.maxFields} fields.`);
  // fromEntries defines each name as an own property: a field called `__proto__` stays a field.
  return Object.fromEntries(names.map((key) => [key, parser(Reflect.get(source, key), key, source)]));
}

/** An object of named values (an `auth.api` argument, a JSON object, a `URLSearchParams`), each parsed by `parser`. */
function record<T>(parser: FieldParser<T>, rule: RecordRule = {}): FieldParser<Record<string, T>> {
  return (value, name) => {
    const source = value instanceof URLSearchParams ? Object.fromEntries(value) : value;
    if (typeof source !== "object" || source === null || Array.isArray(source)) return refuse(rule, `\`${name}\` must be an object.`);
    return collect(source, parser, rule, name);
  };
}

/**
 * The input's own fields but `rule.except`, each parsed by `parser`: fields whose names the operation does
 * not know (a credentials provider's, a provider's callback parameters). Declared fields are not left out
 * unless `except` names them: one form may carry both.
 */
function rest<T>(parser: FieldParser<T>, rule: RecordRule = {}): FieldParser<Record<string, T>> {
  return (_value, name, fields) => collect(fields, parser, rule, name);
}

/** The field parsers of {@link inputSchema}. */
export const field = {
  /** A string of at most `max` characters (required). */
  string,
  /** A parser whose field may be absent (`undefined`). */
  optional,
  /** A yes/no field (a checkbox, or a JSON boolean). */
  flag,
  /** One of a list of strings. */
  oneOf,
  /** A number within bounds (a JSON number, or a decimal string). */
  number,
  /** Any value, for data the handler checks itself. */
  value,
  /** An object of named values, each parsed by one parser. */
  record,
  /** The input's other fields (all but `except`), each parsed by one parser. */
  rest,
};

/** The value of `fields`' own property `name` (`undefined` for an inherited one: `__proto__` is no field). */
function own(fields: object, name: string): unknown {
  return Object.hasOwn(fields, name) ? Reflect.get(fields, name) : undefined;
}

/**
 * An operation's input: `inputSchema({ code: field.string({ max: 64 }) })` parses `{ code: string }`.
 * `InputOf<typeof schema>` is its type.
 */
export function inputSchema<const F extends Record<string, FieldParser<unknown>>>(fields: F): InputSchema<Fields<F>> {
  const entries = Object.entries(fields);
  return {
    parse(given) {
      const parsed: Record<string, unknown> = {};
      for (const [name, parse] of entries) parsed[name] = parse(own(given, name), name, given);
      return parsed as Fields<F>;
    },
  };
}

/**
 * The fields an operation's input is parsed from over HTTP: its declaration's `httpFields`, else the form
 * or JSON body of a POST, or the query of a GET.
 */
export function requestFields(operation: Pick<OperationDeclaration, "httpFields">, request: RequestInternal): object {
  if (operation.httpFields) return operation.httpFields(request);
  return request.method === "POST" ? request.body : request.query;
}
