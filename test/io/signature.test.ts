import {createHash} from "node:crypto";
import {existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";

import {afterAll, beforeAll, describe, expect, it} from "vitest";

import {
  bundleSignature,
  checkSignature,
  generateSigningKey,
  parseSigners,
  signManifest
} from "../../src/io/signature.ts";
import {bundleFiles, request, tokenEvents} from "../support/bundle.ts";
import {spawnCli} from "../collector/helpers.ts";
import {loadBundleDir, publishProblems} from "../../src/loaders/evidence.ts";

/** Issue 11 item 5: Ed25519 signatures over the manifest, checked against a trusted-signers file. */
const manifest = Buffer.from('{"bundleId":"b","files":[]}\n');

describe("checkSignature", () => {
  const alice = generateSigningKey("alice");
  const mallory = generateSigningKey("mallory");
  const signers = parseSigners(`# trusted\n${alice.signersLine}\n`, "allowed_signers");
  const sigOf = (m: Buffer, k = alice, name = "alice") =>
    JSON.stringify(signManifest(m, k.privatePem, name, "2026-12-01T00:00:00Z"));

  it("accepts a signature of a trusted signer over these exact bytes", () => {
    expect(checkSignature(manifest, sigOf(manifest), signers)).toMatchObject({state: "valid", signer: "alice"});
  });

  it("an unsigned bundle is unsigned (neither valid nor invalid)", () => {
    expect(checkSignature(manifest, null, signers)).toEqual({state: "unsigned"});
  });

  it("a manifest edited after signing (status partial → complete) fails", () => {
    const sig = sigOf(manifest);
    const edited = Buffer.from(manifest.toString().replace('"b"', '"c"'));
    expect(checkSignature(edited, sig, signers)).toMatchObject({
      state: "invalid",
      reason: /changed after it was signed/
    });
  });

  it("a re-signed edit with another key is untrusted; a forged record with a recomputed digest is invalid", () => {
    const edited = Buffer.from(manifest.toString().replace('"b"', '"c"'));
    expect(checkSignature(edited, sigOf(edited, mallory, "alice"), signers)).toMatchObject({
      state: "untrusted",
      reason: /not the one allowed_signers lists for "alice"/
    });
    expect(checkSignature(edited, sigOf(edited, mallory, "mallory"), signers)).toMatchObject({state: "untrusted"});
    const forged = JSON.parse(sigOf(manifest)) as Record<string, string>;
    forged.manifestSha256 = createHash("sha256").update(edited).digest("hex");
    expect(checkSignature(edited, JSON.stringify(forged), signers)).toMatchObject({
      state: "invalid",
      reason: /does not match/
    });
  });

  it("a malformed record or trusted-signers line is a clear error", () => {
    expect(checkSignature(manifest, "{nope", signers)).toMatchObject({
      state: "invalid",
      reason: /not a signature record/
    });
    expect(() => parseSigners("alice rsa AAAA\n", "evidence/allowed_signers")).toThrow(
      /evidence\/allowed_signers:1: expected/
    );
  });
});

describe("keygen, sign and verify on a bundle", () => {
  let root: string;
  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), "inferscope-sign-"));
  });
  afterAll(() => rmSync(root, {recursive: true, force: true}));

  it("collect --sign checks the key before anything runs: a file that is no Ed25519 key is exit 2, nothing written", async () => {
    const bad = join(root, "not-a-key.pem");
    writeFileSync(bad, "not a key\n");
    const out = join(root, "never");
    // the config names an address nothing listens on: a collect that got past the key would fail on it (exit 3)
    const config = join(root, "sign-run.yaml");
    writeFileSync(
      config,
      "target: {base_url: 'http://127.0.0.1:9/v1', model: m}\nload: {mode: concurrency, values: [1], requests: 5}\n"
    );
    const c = spawnCli(["collect", "--config", config, "--out", out, "--sign", bad, "--signer", "ci", "--no-progress"]);
    expect((await c.exit).code, c.stderr()).toBe(2);
    expect(c.stderr()).toMatch(/--sign: .*not-a-key\.pem is not a usable signing key/);
    expect(existsSync(out)).toBe(false);
  });

  it("sign writes manifest.sig; verify holds it against allowed_signers beside the evidence, and fails an edit", async () => {
    const evidence = join(root, "evidence");
    const dir = join(evidence, "b1");
    for (const [name, text] of Object.entries(bundleFiles({requests: [request("a", 0, tokenEvents(3, 10, 5))]}))) {
      mkdirSync(dir, {recursive: true});
      writeFileSync(join(dir, name), text);
    }
    const key = join(root, "signer.pem");
    const kg = spawnCli(["keygen", "--out", key, "--name", "ci"]);
    expect((await kg.exit).code, kg.stderr()).toBe(0);
    writeFileSync(join(evidence, "allowed_signers"), kg.stdout());
    const sign = spawnCli(["sign", dir, "--key", key, "--signer", "ci"]);
    expect((await sign.exit).code, sign.stderr()).toBe(0);
    expect(bundleSignature(dir)).toMatchObject({state: "valid", signer: "ci"});
    const ok = spawnCli(["verify", dir, "--require-signature"]);
    expect((await ok.exit).code, ok.stdout() + ok.stderr()).toBe(0);
    expect(ok.stdout()).toMatch(/signature: valid, signed by ci/);
    const site = await loadBundleDir(dir);
    expect(site.signature).toMatchObject({state: "valid", signer: "ci"});
    expect(publishProblems(site)).toEqual([]);
    // edit an unhashed field of the manifest and "reseal" it: the signature no longer holds
    const m = JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8")) as {status: string};
    writeFileSync(join(dir, "manifest.json"), `${JSON.stringify({...m, labels: {edited: "yes"}}, null, 2)}\n`);
    const bad = spawnCli(["verify", dir]);
    expect((await bad.exit).code).toBe(4);
    expect(bad.stdout()).toMatch(/signature: FAIL — the manifest changed after it was signed/);
    // the site refuses to publish it (the build fails with the reason)
    const edited = await loadBundleDir(dir);
    expect(edited.signature.state).toBe("invalid");
    expect(publishProblems(edited).join("\n")).toMatch(/signature: the manifest changed after it was signed/);
  });
});
