import { component$ } from "@builder.io/qwik";
import { QwikCityProvider, RouterOutlet, useDocumentHead } from "@builder.io/qwik-city";

import "./global.css";

const Head = component$(() => {
  const head = useDocumentHead();
  return (
    <>
      <title>{head.title ? `${head.title} · authlib demo` : "authlib demo"}</title>
      <meta name="viewport" content="width=device-width, initial-scale=1.0" />
      <meta name="color-scheme" content="light dark" />
      <link rel="icon" type="image/svg+xml" href="/favicon.svg" />
    </>
  );
});

export default component$(() => (
  <QwikCityProvider>
    <head>
      <meta charset="utf-8" />
      <Head />
    </head>
    <body>
      <RouterOutlet />
    </body>
  </QwikCityProvider>
));
