/**
 * Optional Ed25519 signatures over a bundle's manifest (issue 11 item 5). The manifest lists every other
 * file's sha256, so a valid signature over its bytes covers the whole bundle: anything rewritten together
 * with a recomputed manifest no longer verifies. `manifest.sig` sits beside the manifest (it cannot be
 * listed in it); who may sign is a trusted-signers file kept in the repository beside the evidence
 * (`evidence/allowed_signers`, like SSH's allowed_signers: `name ed25519 <base64 SPKI key>` per line).
 */
import {createPrivateKey, createPublicKey, generateKeyPairSync, sign, verify, type KeyObject} from "node:crypto";
import {existsSync, readFileSync} from "node:fs";
import {dirname, join} from "node:path";

import {z} from "zod";

import {SIGNATURE_FILE} from "../analysis/schema/records.ts";
import {sha256Hex} from "./hash.ts";

export {SIGNATURE_FILE};
export const SIGNERS_FILE = "allowed_signers";

export const SignatureRecord = z.strictObject({
  version: z.literal(1),
  algorithm: z.literal("ed25519"),
  signer: z.string().min(1).describe("the name the signer gave; checked against the trusted-signers file"),
  publicKey: z.string().min(1).describe("base64 DER SubjectPublicKeyInfo of the signing key"),
  manifestSha256: z.string().regex(/^[0-9a-f]{64}$/),
  signature: z.string().min(1).describe("base64 Ed25519 signature over the bytes of manifest.json"),
  signedAt: z.string()
});
export type SignatureRecord = z.infer<typeof SignatureRecord>;

const b64Spki = (key: KeyObject): string => key.export({type: "spki", format: "der"}).toString("base64");

/** A new Ed25519 key pair: the private key as PEM (keep it secret) and the allowed_signers line of its public key. */
export function generateSigningKey(name: string): {privatePem: string; signersLine: string} {
  const {privateKey, publicKey} = generateKeyPairSync("ed25519");
  return {
    privatePem: privateKey.export({type: "pkcs8", format: "pem"}).toString(),
    signersLine: `${name} ed25519 ${b64Spki(publicKey)}`
  };
}

/** The Ed25519 private key of a PEM text; throws (with why) on anything else. */
export function signingKey(privatePem: string): KeyObject {
  const key = createPrivateKey(privatePem);
  if (key.asymmetricKeyType !== "ed25519")
    throw new Error(`the signing key must be Ed25519, got ${key.asymmetricKeyType ?? "an unknown type"}`);
  return key;
}

/** The signature record of manifest bytes. */
export function signManifest(manifest: Buffer, privatePem: string, signer: string, nowIso: string): SignatureRecord {
  const key = signingKey(privatePem);
  return {
    version: 1,
    algorithm: "ed25519",
    signer,
    publicKey: b64Spki(createPublicKey(key)),
    manifestSha256: sha256Hex(manifest),
    signature: sign(null, manifest, key).toString("base64"),
    signedAt: nowIso
  };
}

export interface TrustedSigner {
  name: string;
  publicKey: string;
  line: number;
}

/** Parses an allowed_signers file; a malformed line is an error naming the line. */
export function parseSigners(text: string, file: string): TrustedSigner[] {
  const out: TrustedSigner[] = [];
  text.split("\n").forEach((raw, i) => {
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) return;
    const [name, algo, key] = line.split(/\s+/);
    if (!name || algo !== "ed25519" || !key)
      throw new Error(
        `${file}:${i + 1}: expected "name ed25519 <base64 public key>", got ${JSON.stringify(line.slice(0, 80))}`
      );
    out.push({name, publicKey: key, line: i + 1});
  });
  return out;
}

export type SignatureStatus =
  | {state: "unsigned"}
  | {state: "valid"; signer: string; trusted: true; signedAt: string}
  | {state: "untrusted"; signer: string; reason: string}
  | {state: "invalid"; reason: string};

/**
 * Checks a bundle's signature: the record is well formed, its digest and Ed25519 signature match the
 * manifest's bytes, and its key is the one the trusted-signers file gives for its signer's name.
 */
export function checkSignature(
  manifest: Buffer | null,
  sigText: string | null,
  signers: readonly TrustedSigner[] | null
): SignatureStatus {
  if (sigText === null) return {state: "unsigned"};
  if (manifest === null) return {state: "invalid", reason: `${SIGNATURE_FILE} without a manifest.json`};
  let rec: SignatureRecord;
  try {
    rec = SignatureRecord.parse(JSON.parse(sigText));
  } catch (e) {
    return {
      state: "invalid",
      reason: `${SIGNATURE_FILE} is not a signature record: ${(e as Error).message.split("\n")[0]}`
    };
  }
  if (sha256Hex(manifest) !== rec.manifestSha256)
    return {state: "invalid", reason: "the manifest changed after it was signed (digest mismatch)"};
  let ok: boolean;
  try {
    const key = createPublicKey({key: Buffer.from(rec.publicKey, "base64"), format: "der", type: "spki"});
    ok = verify(null, manifest, key, Buffer.from(rec.signature, "base64"));
  } catch (e) {
    return {state: "invalid", reason: `unusable public key: ${(e as Error).message}`};
  }
  if (!ok) return {state: "invalid", reason: "the Ed25519 signature does not match the manifest"};
  if (signers === null)
    return {state: "untrusted", signer: rec.signer, reason: `no ${SIGNERS_FILE} file: nobody is trusted to sign`};
  const named = signers.filter((s) => s.name === rec.signer);
  if (named.length === 0)
    return {state: "untrusted", signer: rec.signer, reason: `"${rec.signer}" is not in ${SIGNERS_FILE}`};
  if (!named.some((s) => s.publicKey === rec.publicKey))
    return {
      state: "untrusted",
      signer: rec.signer,
      reason: `the key is not the one ${SIGNERS_FILE} lists for "${rec.signer}"`
    };
  return {state: "valid", signer: rec.signer, trusted: true, signedAt: rec.signedAt};
}

/** The trusted-signers file for a bundle folder: `<parent>/allowed_signers` (beside the evidence), or null. */
export function signersFor(bundleDir: string, explicit?: string): {path: string; signers: TrustedSigner[]} | null {
  const path = explicit ?? join(dirname(bundleDir.replace(/[\\/]+$/, "")), SIGNERS_FILE);
  if (!existsSync(path)) {
    if (explicit !== undefined) throw new Error(`trusted-signers file not found: ${explicit}`);
    return null;
  }
  return {path, signers: parseSigners(readFileSync(path, "utf8"), path)};
}

/** Reads and checks the signature of a bundle on disk. */
export function bundleSignature(dir: string, signersPath?: string): SignatureStatus & {signersFile: string | null} {
  const m = join(dir, "manifest.json");
  const s = join(dir, SIGNATURE_FILE);
  const trusted = signersFor(dir, signersPath);
  const status = checkSignature(
    existsSync(m) ? readFileSync(m) : null,
    existsSync(s) ? readFileSync(s, "utf8") : null,
    trusted?.signers ?? null
  );
  return {...status, signersFile: trusted?.path ?? null};
}
