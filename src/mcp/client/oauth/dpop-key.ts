// The DPoP key of one MCP server's OAuth client (RFC 9449): made once, kept with its tokens, since a DPoP-bound token
// (and its refresh token) works only with the key it was issued to.
import { webcrypto as crypto, type webcrypto } from "node:crypto";
import { type DpopKeyPair, DpopSession, generateDpopKeyPair } from "@modelcontextprotocol/client";

type JsonWebKey = webcrypto.JsonWebKey;

/** A DPoP key as the OAuth store keeps it: an ES256 (P-256) key pair as JWKs. */
export interface StoredDpopKey {
  readonly alg: "ES256";
  readonly privateJwk: JsonWebKey;
  readonly publicJwk: JsonWebKey;
  /** RFC 7638 thumbprint of the public key: what the authorization server binds tokens to (`cnf.jkt`). */
  readonly thumbprint: string;
}

const P256 = { name: "ECDSA", namedCurve: "P-256" } as const;

/** A new key, as a session that signs proofs and as what the store keeps. */
export async function newDpopKey(): Promise<{ readonly session: DpopSession; readonly stored: StoredDpopKey }> {
  const pair = await generateDpopKeyPair({ alg: "ES256", extractable: true });
  const privateJwk = await crypto.subtle.exportKey("jwk", pair.privateKey as webcrypto.CryptoKey);
  const stored: StoredDpopKey = {
    alg: "ES256",
    privateJwk,
    publicJwk: pair.publicJwk as JsonWebKey,
    thumbprint: pair.thumbprint,
  };
  return { session: await DpopSession.create({ keyPair: pair }), stored };
}

/** The session of a stored key; its private key is imported not extractable. */
export async function dpopSessionOf(stored: StoredDpopKey): Promise<DpopSession> {
  const privateKey = (await crypto.subtle.importKey("jwk", stored.privateJwk, P256, false, [
    "sign",
  ])) as DpopKeyPair["privateKey"];
  const publicKey = (await crypto.subtle.importKey("jwk", stored.publicJwk, P256, true, [
    "verify",
  ])) as DpopKeyPair["publicKey"];
  return DpopSession.create({
    keyPair: {
      privateKey,
      publicKey,
      publicJwk: stored.publicJwk as never,
      thumbprint: stored.thumbprint,
      alg: stored.alg,
    },
  });
}
