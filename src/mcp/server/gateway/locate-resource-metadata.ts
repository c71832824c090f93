// Where the protected resource metadata document of a resource lives (RFC 9728 §3.1).
import { GatewayError } from "./errors.js";

const WELL_KNOWN = "/.well-known/oauth-protected-resource";

/** Where to serve the metadata of one resource. */
interface ResourceMetadataLocation {
  /** The URL named in `WWW-Authenticate`: the well-known path inserted between the origin and the resource's path. */
  readonly metadataUrl: string;
  /**
   * The request paths to answer with the document: the path-suffixed form of `metadataUrl` first and then the bare
   * well-known path, which clients that do not insert the resource's path ask for.
   */
  readonly metadataPaths: readonly string[];
}

/**
 * The metadata location of `resourceUrl` (for `http://127.0.0.1:8080/mcp`:
 * `http://127.0.0.1:8080/.well-known/oauth-protected-resource/mcp`, and the bare path as well). Throws a
 * `GatewayError` (`invalid-serve-options`) when `resourceUrl` is not an http(s) URL without a fragment.
 */
export function locateResourceMetadata(resourceUrl: string): ResourceMetadataLocation {
  let url: URL;
  try {
    url = new URL(resourceUrl);
  } catch (cause) {
    throw new GatewayError(
      "invalid-serve-options",
      `the resource URL must be a URL, got ${JSON.stringify(resourceUrl)}`,
      {
        cause,
      },
    );
  }
  if ((url.protocol !== "http:" && url.protocol !== "https:") || url.hash !== "" || url.username !== "") {
    throw new GatewayError(
      "invalid-serve-options",
      `the resource URL must be an http(s) URL without credentials or fragment, got ${JSON.stringify(resourceUrl)}`,
    );
  }
  const suffix = url.pathname === "/" ? "" : url.pathname;
  const suffixed = WELL_KNOWN + suffix;
  return {
    metadataUrl: url.origin + suffixed,
    metadataPaths: suffix === "" ? [WELL_KNOWN] : [suffixed, WELL_KNOWN],
  };
}
