/** Prefix of the line that carries the smoke's results on a runtime's standard output. */
export const RESULT_MARKER = "authlib-runtime-smoke:";
