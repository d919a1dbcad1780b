/**
 * `@authlib/core/providers/types`: the shapes of provider objects, declared in `provider-types.ts`.
 *
 * @module providers/types
 */
export type * from "../types/providers.js";
