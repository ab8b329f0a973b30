#!/usr/bin/env node
/**
 * The `inferscope` command line. The only place that calls process.exit: every command throws a
 * CliError with its exit code (collector/cliError.ts), everything else is exit 1 (a bug).
 */
import type {Command} from "commander";

import {CliError, EXIT} from "./cliError.ts";
import {heapForArgs, rerunWithHeap} from "./heap.ts";

export {CliError, EXIT} from "./cliError.ts";

const MIN_NODE = [22, 12] as const;

/**
 * Every subcommand, one module each, registered in this order. Each module exports
 * `register(program: Command): void`. Add new commands (import, report, score…) here.
 */
const COMMANDS: readonly (() => Promise<{register(program: Command): void}>)[] = [
  () => import("./commands/collect.ts"),
  () => import("./commands/analyze.ts"),
  () => import("./commands/verify.ts"),
  () => import("./commands/gate.ts"),
  () => import("./commands/probe.ts"),
  () => import("./commands/configSchema.ts"),
  () => import("./commands/fakeServer.ts"),
  () => import("./commands/import.ts"),
  () => import("./commands/report.ts"),
  () => import("./commands/score.ts"),
  () => import("./commands/sign.ts"),
  () => import("./commands/export.ts"),
  () => import("./commands/experiment.ts"),
  () => import("./commands/merge.ts"),
  () => import("./commands/k8s.ts"),
  () => import("./commands/quick.ts")
];

export const EXIT_HELP = `
Exit codes:
  0    ok (collect: the bundle is VALID; gate: every bundle passes; verify: intact)
  2    bad config or usage
  3    target unreachable
  4    finished but a verdict is not VALID — INVALID or INCONCLUSIVE (collect, gate) — or the bundle is
       not intact (verify); every command's codes: docs/exit-codes.md
  5    evidence could not be written (disk full, I/O error, unwritable folder)
  6    experiment: some variants failed to start or to collect (the others ran)
  7    gate --baseline: the candidate or the baseline is not VALID
  130  interrupted (Ctrl-C / SIGTERM); the bundle is sealed as interrupted
  1    internal error (a bug: please report it)`;

export function nodeTooOld(version: string = process.versions.node): boolean {
  const [major = 0, minor = 0] = version.split(".").map(Number);
  return major < MIN_NODE[0] || (major === MIN_NODE[0] && minor < MIN_NODE[1]);
}

export async function buildProgram(): Promise<Command> {
  const {Command: CommandClass} = await import("commander");
  const {version} = (await import("../package.json", {with: {type: "json"}})).default as {version: string};
  const program = new CommandClass("inferscope")
    .description("evidence-first benchmark for OpenAI-compatible LLM servers")
    .version(version)
    .showHelpAfterError()
    .addHelpText("after", EXIT_HELP)
    .exitOverride();
  for (const load of COMMANDS) (await load()).register(program);
  for (const c of program.commands) c.exitOverride().addHelpText("after", EXIT_HELP);
  return program;
}

/**
 * The command a command line names that does not exist, or null: `inferscope nosuch --help` and
 * `inferscope help nosuch` would otherwise print the root help and exit 0 (commander reads --help first).
 */
export function unknownCommand(program: Command, args: readonly string[]): string | null {
  const known = (name: string) => program.commands.some((c) => c.name() === name || c.aliases().includes(name));
  const first = args[0];
  if (first === undefined || first.startsWith("-")) return null;
  if (first === "help") return args[1] !== undefined && !args[1].startsWith("-") && !known(args[1]) ? args[1] : null;
  return known(first) ? null : first;
}

/** Runs the CLI and returns the exit code (never exits itself). */
export async function main(argv: readonly string[] = process.argv): Promise<number> {
  if (nodeTooOld()) {
    process.stderr.write(
      `inferscope needs Node ≥ ${MIN_NODE.join(".")} (this is ${process.version}); run it through npm (\`npx inferscope …\` or \`npm run inferscope -- …\`) so the project's Node is used\n`
    );
    return EXIT.usage;
  }
  const heap = heapForArgs(argv.slice(2));
  if (heap !== null) return rerunWithHeap(heap, argv);
  const program = await buildProgram();
  const unknown = unknownCommand(program, argv.slice(2));
  if (unknown !== null) {
    process.stderr.write(`inferscope: unknown command '${unknown}' (see \`inferscope --help\`)\n`);
    return EXIT.usage;
  }
  try {
    await program.parseAsync(argv as string[]);
    return EXIT.ok;
  } catch (e) {
    const err = e as {code?: unknown; exitCode?: unknown};
    if (typeof err.code === "string" && err.code.startsWith("commander.")) {
      if (err.code === "commander.helpDisplayed" || err.code === "commander.version" || err.code === "commander.help")
        return EXIT.ok;
      return EXIT.usage; // commander already printed the message
    }
    if (e instanceof CliError) {
      process.stderr.write(`inferscope: ${e.message}\n`);
      return e.exitCode;
    }
    process.stderr.write(`inferscope: internal error: ${(e as Error)?.stack ?? String(e)}\n`);
    return EXIT.internal;
  }
}

// import.meta.main is true when this file is the entry point, whatever path started it
// (`npx inferscope` runs it through a symlink in npm's exec cache).
if (import.meta.main) {
  const code = await main();
  // let stdout drain before exiting (piped output is asynchronous)
  process.stdout.write("", () => process.exit(code));
}
