/**
 * How a feature is written: {@link defineFeature} for its definition, {@link defineOperation} for one
 * operation with a typed input (`inputSchema`, `field`), {@link lazyHandler} for a handler whose code
 * loads with its first request. The app's own features use them the same way (`@authlib/core` exports
 * them; docs/architecture.md, "Where to add a feature").
 *
 * @module features/define
 */
import type { InternalOptions, RequestInternal, ResponseInternal } from "../types/internal.js";
import type { FeatureDefinition, OperationDeclaration, OperationHandler } from "../types/operation.js";

export type { FieldParser, Fields, RecordRule, Refusal, RefusalRule, StringRule } from "../http/input.js";
export { field, inputSchema } from "../http/input.js";
export type {
  FeatureDefinition,
  InputOf,
  InputSchema,
  OperationDeclaration,
  OperationHandler,
  OperationNeeds,
  Presentation,
} from "../types/operation.js";

/** A feature's definition, checked by the compiler: its name, what turns it on, its operations. */
export function defineFeature<const F extends FeatureDefinition>(feature: F): F {
  return feature;
}

/**
 * One operation, checked by the compiler: its handler takes the input its schema parses (`I`), and
 * `auth.api` sees the data it answers (`Body`).
 */
export function defineOperation<I = undefined, Body = unknown>(operation: OperationDeclaration<I, Body>): OperationDeclaration<I, Body> {
  return operation;
}

/** A function of a module that runs an operation: `(options, request, input?)`, for {@link lazyHandler}. */
export type ModuleHandler = (options: InternalOptions, request: RequestInternal, input: never) => unknown;

/** The input a module's handler takes (`undefined` for one that takes none). */
export type HandlerInput<H> = H extends (options: InternalOptions, request: RequestInternal, input: infer I) => unknown ? I : undefined;

/** The data a module's handler answers (`ModuleHandler`: a function of `(options, request, input)`). */
export type HandlerBody<H extends ModuleHandler> = Awaited<ReturnType<H>> extends ResponseInternal<infer Body> ? Body : unknown;

/**
 * A handler whose module loads with the first request to it: `load` imports the module, `name` is the
 * handler it exports. So the code of a feature nobody calls is never loaded (nor, on edge runtimes, bundled
 * into the first request's work). Typed as the handler it loads: its input and its data.
 */
export function lazyHandler<M extends { [K in N]: ModuleHandler }, N extends keyof M & string>(
  load: () => Promise<M>,
  name: N,
): OperationHandler<HandlerInput<M[N]>, HandlerBody<M[N]>> {
  // The one place a loaded module's function is taken as the handler its type says it is: the compiler
  // cannot relate `HandlerInput<M[N]>` back to `M[N]`'s own parameter.
  type Loaded = OperationHandler<HandlerInput<M[N]>, HandlerBody<M[N]>>;
  return async (options, request, input) => ((await load())[name] as unknown as Loaded)(options, request, input);
}
