// Type test (compiled by `tsc`, never run): `AuthConfig.skipCSRFCheck` takes the exported marker and nothing
// else, though the configuration's types declare its type without importing the module that holds it.
import { skipCSRFCheck } from "@authlib/core";
import type { AuthConfig } from "@authlib/core/types";

const skipped: AuthConfig = { providers: [], skipCSRFCheck };
// @ts-expect-error another symbol, even with the same registered key, is not the marker's type
const sameKey: AuthConfig = { providers: [], skipCSRFCheck: Symbol.for("authlib.skipCSRFCheck") };
// @ts-expect-error a boolean cannot switch the check off
const flag: AuthConfig = { providers: [], skipCSRFCheck: true };
const marker: symbol = skipCSRFCheck;

export { flag, marker, sameKey, skipped };
