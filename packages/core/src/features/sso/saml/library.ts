/**
 * Loads `@node-saml/node-saml` (an optional peer dependency) on first use, so that core and the `sso` feature
 * load without it when no SAML connection is used, and the XML parser it brings (`@xmldom/xmldom`), resolved
 * from node-saml's own folder so that we parse with the very version node-saml verifies with.
 *
 * @module features/sso/saml/library
 */
import type { DOMParser as XmlDomParser } from "@xmldom/xmldom";
import { SamlLibraryMissing } from "../../../errors.js";

/** The parts of node-saml the SAML core uses. */
export interface NodeSamlLibrary {
  /** node-saml's service provider: builds requests, verifies signatures and picks the signed assertion. */
  SAML: typeof import("@node-saml/node-saml").SAML;
  /** node-saml's InResponseTo modes (we use `never`: the binding to the browser is ours, `response.ts`). */
  ValidateInResponseTo: typeof import("@node-saml/node-saml").ValidateInResponseTo;
  /**
   * node-saml's check of one element's enveloped signature (`lib/xml.js`): the canonical XML the signature
   * covers, or `null`. Used for the Response element, whose verified form node-saml does not hand back.
   */
  getVerifiedXml(fullXml: string, currentNode: Element, pemFiles: string[]): string | null;
}

const INSTALL = "SAML connections need the @node-saml/node-saml package: run `npm install @node-saml/node-saml`.";

let loading: Promise<NodeSamlLibrary> | undefined;

/**
 * node-saml's modules, named through variables: a bundler follows an `import()` of a literal, and would pull
 * node-saml (Node only: `crypto`, `zlib`) into every edge bundle of core, whose `sso` feature it can reach.
 */
const NODE_SAML = "@node-saml/node-saml";
const NODE_SAML_XML = "@node-saml/node-saml/lib/xml.js";

/** node-saml, loaded once. Throws `SamlLibraryMissing` when it is not installed. */
export function loadNodeSaml(): Promise<NodeSamlLibrary> {
  loading ??= Promise.all([
    import(/* @vite-ignore */ NODE_SAML) as Promise<typeof import("@node-saml/node-saml")>,
    import(/* @vite-ignore */ NODE_SAML_XML) as Promise<typeof import("@node-saml/node-saml/lib/xml.js")>,
  ])
    .then(([main, xml]) => ({ SAML: main.SAML, ValidateInResponseTo: main.ValidateInResponseTo, getVerifiedXml: xml.getVerifiedXml }))
    .catch((error: unknown) => {
      loading = undefined;
      throw new SamlLibraryMissing(INSTALL, { cause: error as Error });
    });
  return loading;
}

/** The `DOMParser` class of the `@xmldom/xmldom` that node-saml uses. */
export type DomParserClass = typeof XmlDomParser;

let parserClass: DomParserClass | undefined;

/**
 * The `DOMParser` of node-saml's `@xmldom/xmldom`, loaded synchronously (metadata parsing is synchronous).
 * Node's `createRequire` is reached through `process.getBuiltinModule`, so that no runtime without it
 * imports `node:module` by merely loading this file. Throws `SamlLibraryMissing` when it cannot be loaded.
 */
export function xmlDomParser(): DomParserClass {
  if (parserClass) return parserClass;
  try {
    const nodeModule = process.getBuiltinModule("node:module");
    const fromHere = nodeModule.createRequire(import.meta.url);
    const fromNodeSaml = nodeModule.createRequire(fromHere.resolve("@node-saml/node-saml"));
    parserClass = (fromNodeSaml("@xmldom/xmldom") as typeof import("@xmldom/xmldom")).DOMParser;
    return parserClass;
  } catch (error) {
    throw new SamlLibraryMissing(INSTALL, { cause: error as Error });
  }
}
