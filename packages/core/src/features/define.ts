/**
 * How a feature is written: {@link defineFeature} for its definition, {@link lazyHandler} for a handler
 * whose code loads with its first request. The app's own features use them the same way
 * (`@authlib/core` exports both; docs/architecture.md, "Where to add a feature").
 *
 * @module features/define
 */
import type { FeatureDefinition, OperationHandler } from "../types/operation.js";

export type { FeatureDefinition, OperationDeclaration, OperationHandler, OperationNeeds, Presentation } from "../types/operation.js";

/** A feature's definition, checked by the compiler: its name, what turns it on, its operations. */
export function defineFeature<const F extends FeatureDefinition>(feature: F): F {
  return feature;
}

/**
 * A handler whose module loads with the first request to it: `load` imports the module, `name` is the
 * handler it exports. So the code of a feature nobody calls is never loaded (nor, on edge runtimes, bundled
 * into the first request's work).
 */
export function lazyHandler<M>(load: () => Promise<M>, name: keyof M & string): OperationHandler {
  return async (options, request) => ((await load())[name] as OperationHandler)(options, request);
}
