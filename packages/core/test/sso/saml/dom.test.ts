/**
 * The strict XML parsing and the small DOM readers of the SAML core (`features/sso/saml/dom.ts`), on
 * parsed documents: no DTD ever, broken markup refused, children read by namespace and local name (direct
 * children only), an absent attribute told from an empty one, and the two ways an element's text is read
 * (exactly one text node; or text only, trimmed). Fast: no signature (mutation group `sso-saml`).
 */
import { describe, expect, it } from "vitest";
import {
  attributeOf,
  childElements,
  childElementsByLocalName,
  isElement,
  parseStrictXml,
  plainText,
  SAML_NS,
  SAMLP_NS,
  soleText,
  XmlRefused,
} from "../../../src/features/sso/saml/dom.js";

const root = (xml: string) => parseStrictXml(xml).documentElement;
const saml = (inner: string, attributes = "") => root(`<saml:Root xmlns:saml="${SAML_NS}"${attributes}>${inner}</saml:Root>`);

/** The refusal `run` throws (an XmlRefused), or a failure when it throws nothing or something else. */
function refused(run: () => unknown): XmlRefused {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(XmlRefused);
    return error as XmlRefused;
  }
  throw new Error("not refused");
}

describe("parseStrictXml", () => {
  it("parses a namespaced document", () => {
    const element = root(`<samlp:Response xmlns:samlp="${SAMLP_NS}" ID="_r"/>`);
    expect(isElement(element, SAMLP_NS, "Response")).toBe(true);
  });

  it("refuses any document type declaration or entity, whatever its case, before parsing", () => {
    expect(refused(() => parseStrictXml("<!DOCTYPE r><r/>")).message).toBe("a document type declaration");
    expect(refused(() => parseStrictXml("<!doctype r><r/>")).message).toBe("a document type declaration");
    expect(refused(() => parseStrictXml('<r><!ENTITY x "y"></r>')).message).toBe("a document type declaration");
    expect(refused(() => parseStrictXml('<r><!entity x "y"></r>')).message).toBe("a document type declaration");
  });

  it("refuses broken markup the parser would otherwise recover from, and a text without a root", () => {
    for (const text of ["<r>unterminated", "<r><a></b></r>", "<r a='1' a='2'/>", "not xml at all", "", "<r/><s/>"])
      refused(() => parseStrictXml(text));
  });
});

describe("isElement", () => {
  const element = saml("<saml:Issuer>x</saml:Issuer>text");
  it("is true only for an element of that namespace and local name", () => {
    const issuer = element.firstChild;
    expect(isElement(issuer, SAML_NS, "Issuer")).toBe(true);
    expect(isElement(issuer, SAMLP_NS, "Issuer")).toBe(false);
    expect(isElement(issuer, SAML_NS, "Subject")).toBe(false);
    expect(isElement(element.lastChild, SAML_NS, "Issuer")).toBe(false);
    expect(isElement(null, SAML_NS, "Issuer")).toBe(false);
    expect(isElement(undefined, SAML_NS, "Issuer")).toBe(false);
  });
});

describe("childElements and childElementsByLocalName", () => {
  const element = saml(
    `<saml:A n="1"/>text<saml:B><saml:A n="nested"/></saml:B><other:A xmlns:other="urn:other" n="2"/><!-- c --><saml:A n="3"/>`,
  );
  const numbers = (elements: Element[]) => elements.map((e) => e.getAttribute("n"));

  it("read direct children of one namespace and local name, in document order", () => {
    expect(numbers(childElements(element, SAML_NS, "A"))).toEqual(["1", "3"]);
    expect(childElements(element, SAML_NS, "Missing")).toEqual([]);
  });

  it("read direct children of one local name in any namespace, elements only", () => {
    expect(numbers(childElementsByLocalName(element, "A"))).toEqual(["1", "2", "3"]);
    expect(childElementsByLocalName(element, "B")).toHaveLength(1);
    expect(childElementsByLocalName(element, "#text")).toEqual([]);
    expect(childElementsByLocalName(element, "#comment")).toEqual([]);
  });
});

describe("attributeOf", () => {
  it("tells an absent attribute (undefined) from an empty one", () => {
    const element = saml("", ' Empty="" Full="value"');
    expect(attributeOf(element, "Full")).toBe("value");
    expect(attributeOf(element, "Empty")).toBe("");
    expect(attributeOf(element, "Absent")).toBeUndefined();
  });
});

describe("soleText", () => {
  const text = (inner: string) => soleText(saml(inner));
  it("is the one text node, untrimmed, or the one CDATA section", () => {
    expect(text(" ada@corp.example ")).toBe(" ada@corp.example ");
    expect(text("<![CDATA[ada<x>]]>")).toBe("ada<x>");
  });

  it("is undefined for no node, a comment, a split text, an element or a processing instruction", () => {
    for (const inner of ["", "<!-- c -->", "ada<!-- c -->@corp.example", "ada<!-- c -->", "<saml:X/>", "ada<saml:X/>", "<?pi x?>"])
      expect(text(inner), inner).toBeUndefined();
  });
});

describe("plainText", () => {
  const text = (inner: string) => plainText(saml(inner));
  it("joins the text and CDATA nodes, skips comments, and trims", () => {
    expect(text("  a<!-- c -->b<![CDATA[ c ]]>  ")).toBe("ab c");
    expect(text("")).toBe("");
    expect(text("<!-- only a comment -->")).toBe("");
  });

  it("is undefined when a child element is there", () => {
    expect(text("a<saml:X/>")).toBeUndefined();
    expect(text("<saml:X>a</saml:X>")).toBeUndefined();
  });
});
