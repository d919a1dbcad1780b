import { component$ } from "@builder.io/qwik";

/** A page that never reads the session. */
export default component$(() => <p>Hello from a page that does not use the session.</p>);
