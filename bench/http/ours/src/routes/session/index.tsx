import { component$ } from "@builder.io/qwik";
import { useSession } from "../plugin@auth";

/** A page that renders the session. */
export default component$(() => {
  const session = useSession();
  return <p>Signed in as {session.value?.user?.email ?? "nobody"}</p>;
});
