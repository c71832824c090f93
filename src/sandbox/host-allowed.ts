// Whether a host a sandboxed command asked the proxy for is one of `allowHosts`.

/**
 * True when `host` (a name or IP literal, any case, brackets and a trailing dot ignored) equals an entry
 * of `allowHosts`, or is a subdomain of an entry written `*.domain` (which does not match `domain` itself).
 */
export function isHostAllowed(host: string, allowHosts: readonly string[]): boolean {
  const name = normalize(host);
  if (name === "") return false;
  return allowHosts.some((entry) => {
    const pattern = normalize(entry);
    return pattern.startsWith("*.") ? name.endsWith(pattern.slice(1)) : name === pattern;
  });
}

function normalize(host: string): string {
  return host
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, "$1")
    .replace(/\.$/, "");
}
