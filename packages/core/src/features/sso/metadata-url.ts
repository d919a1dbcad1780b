/**
 * Fetching an identity provider's SAML metadata from the URL a connection's admin gives
 * (`saml.metadataUrl`). The URL is input the server fetches, so it goes through the public fetch
 * (`http/public-fetch.ts`, the authorization server's client documents use it too): https only, the host
 * resolved once to public addresses only (unless `sso.metadataUrls.allowPrivateAddresses`), the connection
 * pinned to the checked address, no redirect, an XML content type, at most 256 KiB (as much as pasted
 * metadata may be), within 5 s. Every refusal is `InvalidIdpMetadata` saying why.
 *
 * @module features/sso/metadata-url
 */
import { InvalidIdpMetadata } from "../../errors.js";
import { checkPublicUrl, fetchPublicDocument } from "../../http/public-fetch.js";
import type { SsoMetadataUrlsConfig } from "../../types/sso.js";

/** The largest metadata document fetched, in bytes: what `saml.metadataXml` may hold. */
export const MAX_METADATA_BYTES = 262_144;

const DEFAULT_TIMEOUT = 5000;

/** The content types SAML metadata is served with (RFC 7580's own, and XML's). */
const METADATA_TYPES = new Set(["application/samlmetadata+xml", "application/xml", "text/xml"]);

/** The refusal of `metadataUrl`: `why` completes the sentence about it. */
function refusal(metadataUrl: string) {
  const shown = metadataUrl.length > 100 ? `${metadataUrl.slice(0, 100)}…` : metadataUrl;
  return (why: string) => new InvalidIdpMetadata(`The IdP's metadata URL ${JSON.stringify(shown)} ${why}.`);
}

/**
 * The text of the metadata document at `metadataUrl`, fetched under `sso.metadataUrls` (see the module);
 * what it says is for `parseIdpMetadata`. Throws `InvalidIdpMetadata` with the reason (not https, a
 * non-public address, a redirect, too large, too slow, not XML).
 */
export async function fetchIdpMetadata(metadataUrl: string, config: SsoMetadataUrlsConfig = {}): Promise<string> {
  const refuse = refusal(metadataUrl);
  const url = checkPublicUrl(metadataUrl, refuse);
  return fetchPublicDocument(url, {
    allowPrivateAddresses: config.allowPrivateAddresses ?? false,
    timeout: config.timeout ?? DEFAULT_TIMEOUT,
    ...(config.ca === undefined ? {} : { ca: config.ca }),
    maxBytes: MAX_METADATA_BYTES,
    accept: [...METADATA_TYPES].join(", "),
    acceptsType: (type) => METADATA_TYPES.has(type),
    expected: "XML",
    refuse,
  });
}
