import type {Command} from "commander";

import {generateSigningKey, SIGNATURE_FILE, signingKey, signManifest} from "../../src/io/signature.ts";
import {CliError, EXIT} from "../cliError.ts";
import {defaultEffects, type Effects} from "../effects.ts";
import {defaultIo, type Io} from "./io.ts";

/**
 * `keygen` and `sign`: optional Ed25519 signatures over a bundle's manifest (docs/security.md). The public
 * key goes into the trusted-signers file beside the evidence (evidence/allowed_signers); verify and the
 * site check signatures against it.
 */
export async function keygenCommand(o: {out?: string; name?: string}, io: Io, fx: Effects = defaultEffects()) {
  if (o.out === undefined || o.name === undefined)
    throw new CliError("keygen needs --out KEY.pem and --name SIGNER", {exitCode: EXIT.usage});
  if (await fx.files.exists(o.out)) throw new CliError(`refusing to overwrite ${o.out}`, {exitCode: EXIT.usage});
  const {privatePem, signersLine} = generateSigningKey(o.name);
  try {
    await fx.files.writeAtomic(o.out, privatePem);
    await fx.files.chmod(o.out, 0o600);
  } catch (e) {
    throw new CliError(`cannot write ${o.out}: ${(e as Error).message}`, {exitCode: EXIT.writeFailed});
  }
  io.err.info(`wrote the private key ${o.out} (keep it secret); add this line to evidence/allowed_signers:`);
  io.out(signersLine);
}

/**
 * Reads and checks a signing key before anything is run (`collect --sign`): a file that is not an Ed25519
 * private key would otherwise be found only after the whole run, its bundle sealed unsigned.
 */
export async function checkSigningKey(fx: Pick<Effects, "files">, keyPath: string): Promise<void> {
  let pem: string;
  try {
    pem = (await fx.files.readFile(keyPath)).toString("utf8");
  } catch (e) {
    throw new CliError(`--sign: cannot read the signing key ${keyPath}: ${(e as Error).message}`, {
      exitCode: EXIT.usage
    });
  }
  try {
    signingKey(pem);
  } catch (e) {
    throw new CliError(`--sign: ${keyPath} is not a usable signing key: ${(e as Error).message}`, {
      exitCode: EXIT.usage
    });
  }
}

/** Signs a sealed bundle's manifest with a private key file (PEM). */
export async function signBundle(fx: Pick<Effects, "files" | "clock">, dir: string, keyPath: string, signer: string) {
  let pem: string;
  try {
    pem = (await fx.files.readFile(keyPath)).toString("utf8");
  } catch (e) {
    throw new CliError(`cannot read the signing key ${keyPath}: ${(e as Error).message}`, {exitCode: EXIT.usage});
  }
  let manifest: Buffer;
  try {
    manifest = await fx.files.readFile(`${dir}/manifest.json`);
  } catch {
    throw new CliError(`${dir} has no manifest.json: only a sealed bundle can be signed`, {exitCode: EXIT.usage});
  }
  let rec;
  try {
    rec = signManifest(manifest, pem, signer, new Date(fx.clock.wallMs()).toISOString());
  } catch (e) {
    throw new CliError(`cannot sign with ${keyPath}: ${(e as Error).message}`, {exitCode: EXIT.usage});
  }
  try {
    await fx.files.writeAtomic(`${dir}/${SIGNATURE_FILE}`, `${JSON.stringify(rec, null, 2)}\n`);
  } catch (e) {
    throw new CliError(`cannot write ${dir}/${SIGNATURE_FILE}: ${(e as Error).message}`, {exitCode: EXIT.writeFailed});
  }
}

export function register(program: Command): void {
  program
    .command("keygen")
    .description("make an Ed25519 signing key; prints the line to add to evidence/allowed_signers")
    .option("--out <file>", "where to write the private key (PEM)")
    .option("--name <signer>", "the signer's name in allowed_signers")
    .action(async (o: {out?: string; name?: string}) => keygenCommand(o, defaultIo()));
  program
    .command("sign")
    .description("sign a sealed bundle's manifest (writes manifest.sig beside it)")
    .argument("<bundle>", "bundle folder")
    .requiredOption("--key <file>", "Ed25519 private key (PEM), e.g. from `inferscope keygen`")
    .requiredOption("--signer <name>", "the signer's name, as in allowed_signers")
    .action(async (dir: string, o: {key: string; signer: string}) => {
      const fx = defaultEffects();
      await signBundle(fx, dir, o.key, o.signer);
      defaultIo().out(`${dir}/${SIGNATURE_FILE}`);
    });
}
