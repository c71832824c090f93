// The WWW-Authenticate value of a refused request (RFC 6750 §3, RFC 9728 §5.1).

/** The parameters of one Bearer challenge; `error` is left out when the request carried no credential. */
interface BearerChallenge {
  readonly error?: "invalid_request" | "invalid_token" | "insufficient_scope";
  readonly description?: string;
  /** Space-separated scope tokens the resource needs. */
  readonly scope?: string;
  /** The URL of the protected resource metadata document. */
  readonly resourceMetadata: string;
}

/**
 * `Bearer error="…", error_description="…", scope="…", resource_metadata="…"`, with only the parameters given.
 * Characters RFC 6750 does not allow in a quoted value (`"`, `\`, anything outside printable ASCII) are dropped.
 */
export function formatBearerChallenge(challenge: BearerChallenge): string {
  const parameters: string[] = [];
  if (challenge.error !== undefined) parameters.push(`error=${quote(challenge.error)}`);
  if (challenge.description !== undefined) parameters.push(`error_description=${quote(challenge.description)}`);
  if (challenge.scope !== undefined && challenge.scope !== "") parameters.push(`scope=${quote(challenge.scope)}`);
  parameters.push(`resource_metadata=${quote(challenge.resourceMetadata)}`);
  return `Bearer ${parameters.join(", ")}`;
}

function quote(value: string): string {
  return `"${value.replace(/[^\x20-\x21\x23-\x5b\x5d-\x7e]/g, "")}"`;
}
