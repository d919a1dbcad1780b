/** The in-memory admin methods (`test/helpers/memory-admin.ts`) held to the admin store suite the hosted-db adapter passes too. */
import { runAdminStoreSuite } from "../helpers/admin-store-suite.js";
import { memoryAdapter } from "../helpers/memory-adapter.js";
import { memoryAdmin } from "../helpers/memory-admin.js";

runAdminStoreSuite({
  name: "the in-memory admin methods",
  store: async () => {
    const memory = memoryAdapter();
    return { ...memory.adapter, ...memoryAdmin(memory.users).methods } as never;
  },
});
