import { component$, Slot } from "@builder.io/qwik";
import { onlyLocalClients } from "../../server/dev-tools";

/** Everything under /dev is a development tool: local clients only (see server/dev-tools.ts). */
export const onRequest = onlyLocalClients;

export default component$(() => <Slot />);
