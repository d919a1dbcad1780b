/**
 * Entry of the bundle that workerd runs (through miniflare): a module worker whose every request runs the
 * smoke and answers its results as JSON. The checks run inside the request, where workerd allows
 * randomness and crypto (not at the module's top level).
 */
import { runSmoke } from "./smoke.js";

export default {
  async fetch(): Promise<Response> {
    return Response.json(await runSmoke());
  },
};
