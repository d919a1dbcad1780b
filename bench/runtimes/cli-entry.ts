/**
 * Entry of the bundle that Node, Deno and Bun run as a plain script: runs the smoke and prints its results
 * as one JSON line after {@link RESULT_MARKER}, so the harness finds them among any log lines.
 */
import { RESULT_MARKER } from "./marker.js";
import { runSmoke } from "./smoke.js";

console.log(`${RESULT_MARKER}${JSON.stringify(await runSmoke())}`);
