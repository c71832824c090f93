// Reads the Bearer credential out of an Authorization header, which is untrusted input: never throws, whatever it
// holds.

/** The longest Authorization header read; a longer one is refused before any parsing. */
const MAX_AUTHORIZATION_LENGTH = 8192;

/**
 * What an Authorization header carries:
 * - `none`: no header, or a scheme other than Bearer (RFC 6750 §3.1: the challenge then carries no error code).
 * - `malformed`: a Bearer header that cannot hold a token (nothing after the scheme, several words, control
 *   characters, longer than `MAX_AUTHORIZATION_LENGTH`); `description` says which, without echoing the header.
 * - `bearer`: one token, without the scheme and surrounding whitespace.
 */
type BearerCredential =
  | { readonly kind: "none"; readonly reason: "absent" | "other-scheme" }
  | { readonly kind: "malformed"; readonly description: string }
  | { readonly kind: "bearer"; readonly credential: string };

/** The credential in `authorization` (the raw header value); the scheme is matched case-insensitively. */
export function readBearerCredential(authorization: unknown): BearerCredential {
  if (authorization === undefined || authorization === null) return { kind: "none", reason: "absent" };
  if (typeof authorization !== "string") {
    return { kind: "malformed", description: "the Authorization header must be given once" };
  }
  if (authorization.length > MAX_AUTHORIZATION_LENGTH) {
    return {
      kind: "malformed",
      description: `the Authorization header is longer than ${MAX_AUTHORIZATION_LENGTH} characters`,
    };
  }
  const trimmed = authorization.replace(/^[ \t]+|[ \t]+$/g, "");
  if (trimmed === "") return { kind: "none", reason: "absent" };
  const space = trimmed.search(/[ \t]/);
  const scheme = space === -1 ? trimmed : trimmed.slice(0, space);
  if (scheme.toLowerCase() !== "bearer") return { kind: "none", reason: "other-scheme" };
  const credential = space === -1 ? "" : trimmed.slice(space).replace(/^[ \t]+/, "");
  if (credential === "") return { kind: "malformed", description: "the Bearer scheme needs a token after it" };
  if (!/^[\x21-\x7e]+$/.test(credential)) {
    return { kind: "malformed", description: "the Bearer token must be one word of visible ASCII characters" };
  }
  return { kind: "bearer", credential };
}
