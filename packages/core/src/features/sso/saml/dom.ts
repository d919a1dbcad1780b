/**
 * Strict XML parsing and small DOM readers for SAML documents. The readers walk direct children by
 * namespace and local name: never an XPath over a whole document, so a value is always read from the
 * element it was asked of (the one a signature covers, when the caller passes that one).
 *
 * @module features/sso/saml/dom
 */
import { xmlDomParser } from "./library.js";

/** The SAML 2.0 protocol namespace (Response, Status). */
export const SAMLP_NS = "urn:oasis:names:tc:SAML:2.0:protocol";
/** The SAML 2.0 assertion namespace (Assertion, Issuer, Subject, Conditions, Attribute). */
export const SAML_NS = "urn:oasis:names:tc:SAML:2.0:assertion";
/** The SAML 2.0 metadata namespace. */
export const MD_NS = "urn:oasis:names:tc:SAML:2.0:metadata";
/** The XML Signature namespace. */
export const DS_NS = "http://www.w3.org/2000/09/xmldsig#";

const ELEMENT_NODE = 1;
const TEXT_NODE = 3;
const CDATA_SECTION_NODE = 4;

/** Why `parseStrictXml` refused a text. */
export class XmlRefused extends Error {}

/**
 * Parses an XML text, refusing any document type declaration: SAML forbids DTDs (SAML core, section 1.3),
 * and refusing them before parsing is what keeps entity expansion ("billion laughs") and external entities
 * out. Parser errors and warnings refuse the text too (xmldom otherwise recovers from broken markup).
 */
export function parseStrictXml(text: string): Document {
  if (/<!DOCTYPE|<!ENTITY/i.test(text)) throw new XmlRefused("a document type declaration");
  const refuse = (message: unknown) => {
    throw new XmlRefused(String(message));
  };
  const DOMParser = xmlDomParser();
  const parser = new DOMParser({ errorHandler: { warning: refuse, error: refuse, fatalError: refuse } });
  let document: Document;
  try {
    document = parser.parseFromString(text, "text/xml");
  } catch (error) {
    throw error instanceof XmlRefused ? error : new XmlRefused(String(error));
  }
  if (!document?.documentElement) throw new XmlRefused("no root element");
  return document;
}

/** True when the node is the element `{namespace}localName`. */
export function isElement(node: Node | null | undefined, namespace: string, localName: string): node is Element {
  return node?.nodeType === ELEMENT_NODE && (node as Element).namespaceURI === namespace && (node as Element).localName === localName;
}

/** The direct child elements of `parent` named `{namespace}localName`, in document order. */
export function childElements(parent: Element, namespace: string, localName: string): Element[] {
  const found: Element[] = [];
  for (let node = parent.firstChild; node; node = node.nextSibling) {
    if (isElement(node, namespace, localName)) found.push(node);
  }
  return found;
}

/** The direct child elements of `parent` with this local name, whatever their namespace. */
export function childElementsByLocalName(parent: Element, localName: string): Element[] {
  const found: Element[] = [];
  for (let node = parent.firstChild; node; node = node.nextSibling) {
    if (node.nodeType === ELEMENT_NODE && (node as Element).localName === localName) found.push(node as Element);
  }
  return found;
}

/** An attribute's value, or `undefined` when it is absent (xmldom answers `""` for both). */
export function attributeOf(element: Element, name: string): string | undefined {
  return element.hasAttribute(name) ? (element.getAttribute(name) ?? undefined) : undefined;
}

/**
 * The text of an element that must hold exactly one text node and nothing else (no comment, no processing
 * instruction, no child element, no second text node): `undefined` otherwise. This is what refuses a NameID
 * split by a comment, which a reader of the first text node would truncate.
 */
export function soleText(element: Element): string | undefined {
  const only = element.firstChild;
  if (!only || only !== element.lastChild) return undefined;
  if (only.nodeType !== TEXT_NODE && only.nodeType !== CDATA_SECTION_NODE) return undefined;
  return only.nodeValue ?? undefined;
}

/** The trimmed text content of an element whose children are only text (`undefined` if it has a child element). */
export function plainText(element: Element): string | undefined {
  let text = "";
  for (let node = element.firstChild; node; node = node.nextSibling) {
    if (node.nodeType === ELEMENT_NODE) return undefined;
    if (node.nodeType === TEXT_NODE || node.nodeType === CDATA_SECTION_NODE) text += node.nodeValue ?? "";
  }
  return text.trim();
}
