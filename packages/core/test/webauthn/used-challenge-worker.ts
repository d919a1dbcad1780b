/**
 * A separate process that claims used passkey challenges in a shared PostgreSQL branch, as another
 * instance behind a load balancer would: `node --import tsx used-challenge-worker.ts <databaseURL>
 * <branch> <count>` claims the challenges `shared-0` … `shared-<count-1>` (ten at a time, in a shuffled
 * order) through `claimChallenge` and prints the indices it won as JSON.
 */
import { HostedDbAdapter, HostedDbClient } from "@authlib/hosted-db-adapter";
import { InvalidCheck } from "../../src/errors.js";
import type { AuthConfig } from "../../src/types/config.js";
import type { InternalOptions } from "../../src/types/internal.js";
import { claimChallenge } from "../../src/webauthn/challenge-store.js";

const [databaseURL, branch, countText] = process.argv.slice(2);
const client = new HostedDbClient({ databaseURL, branch });
// claimChallenge reads only the adapter, the configuration and the instance's state (its used-challenge memory).
const options = { adapter: HostedDbAdapter(client), config: {} as AuthConfig, instanceState: {} } as InternalOptions;
const order = Array.from({ length: Number(countText) }, (_, i) => i).sort(() => Math.random() - 0.5);
const won: number[] = [];
const expiresAt = Date.now() + 15 * 60 * 1000;
for (let start = 0; start < order.length; start += 10) {
  await Promise.all(
    order.slice(start, start + 10).map(async (i) => {
      try {
        await claimChallenge(options, `shared-${i}`, expiresAt);
        won.push(i);
      } catch (error) {
        if (!(error instanceof InvalidCheck)) throw error;
      }
    }),
  );
}
await client.close();
process.stdout.write(JSON.stringify(won.sort((a, b) => a - b)));
