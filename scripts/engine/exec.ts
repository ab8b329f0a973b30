import {execFile, spawn} from "node:child_process";
import {accessSync, constants} from "node:fs";
import {delimiter, join} from "node:path";

export interface ExecResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a command to completion and captures its output; never throws on a non-zero exit. */
export function exec(
  file: string,
  args: readonly string[],
  options: {cwd?: string; maxBuffer?: number; encoding?: "utf8"; env?: NodeJS.ProcessEnv} = {}
): Promise<ExecResult> {
  return new Promise((resolve, reject) => {
    execFile(
      file,
      args,
      {
        cwd: options.cwd,
        maxBuffer: options.maxBuffer ?? 64 * 1024 * 1024,
        encoding: "utf8",
        env: options.env ?? process.env
      },
      (error, stdout, stderr) => {
        if (error && typeof error.code !== "number") return reject(new Error(`cannot run ${file}: ${error.message}`));
        resolve({code: error ? Number(error.code) : 0, stdout, stderr});
      }
    );
  });
}

/** Like exec, but throws a lowercase error with the tail of stderr when the command fails. */
export async function execOk(file: string, args: readonly string[], options: {cwd?: string} = {}): Promise<string> {
  const r = await exec(file, args, options);
  if (r.code !== 0) {
    throw new Error(`command failed (exit ${r.code}): ${file} ${args.join(" ")}\n${tail(r.stderr || r.stdout, 2000)}`);
  }
  return r.stdout;
}

/** Runs a command and returns its stdout as a Buffer (for binary output such as `git show`). */
export function execBuffer(file: string, args: readonly string[], options: {cwd?: string} = {}): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, {cwd: options.cwd, stdio: ["ignore", "pipe", "pipe"]});
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on("data", (b: Buffer) => out.push(b));
    child.stderr.on("data", (b: Buffer) => err.push(b));
    child.on("error", (e) => reject(new Error(`cannot run ${file}: ${e.message}`)));
    child.on("close", (code) => {
      if (code === 0) resolve(Buffer.concat(out));
      else
        reject(new Error(`command failed (exit ${code}): ${file} ${args.join(" ")}\n${Buffer.concat(err).toString()}`));
    });
  });
}

/** Finds an executable on PATH, like `which`. */
export function which(name: string, path: string = process.env.PATH ?? ""): string | undefined {
  for (const dir of path.split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

export function tail(text: string, chars: number): string {
  return text.length <= chars ? text : "…" + text.slice(text.length - chars);
}
