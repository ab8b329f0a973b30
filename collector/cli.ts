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
 * Every subcommand, one module each, registered in this order, with the names it registers (so that a
 * command line naming one loads that module alone: loading all of them costs ≈ 60 ms of CPU at every start,
 * issue 17's fixed cost; a test checks the names against what the modules register). Each module exports
 * `register(program: Command): void`. Add new commands (import, report, score…) here.
 */
export const COMMANDS: readonly {names: readonly string[]; load: () => Promise<{register(program: Command): void}>}[] =
  [
    {names: ["collect", "seal"], load: () => import("./commands/collect.ts")},
    {names: ["analyze"], load: () => import("./commands/analyze.ts")},
    {names: ["verify"], load: () => import("./commands/verify.ts")},
    {names: ["gate"], load: () => import("./commands/gate.ts")},
    {names: ["probe"], load: () => import("./commands/probe.ts")},
    {names: ["config-schema"], load: () => import("./commands/configSchema.ts")},
    {names: ["fake-server"], load: () => import("./commands/fakeServer.ts")},
    {names: ["import"], load: () => import("./commands/import.ts")},
    {names: ["report"], load: () => import("./commands/report.ts")},
    {names: ["score"], load: () => import("./commands/score.ts")},
    {names: ["keygen", "sign"], load: () => import("./commands/sign.ts")},
    {names: ["export"], load: () => import("./commands/export.ts")},
    {names: ["experiment"], load: () => import("./commands/experiment.ts")},
    {names: ["merge"], load: () => import("./commands/merge.ts")},
    {names: ["k8s"], load: () => import("./commands/k8s.ts")},
    {names: ["quick"], load: () => import("./commands/quick.ts")}
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

/**
 * The program with every command, or — when the command line's first word names one — with that command's
 * module alone (its help and errors are the same either way; the root help, `help X` and an unknown word
 * load them all).
 */
export async function buildProgram(args: readonly string[] = []): Promise<Command> {
  const {Command: CommandClass} = await import("commander");
  const {version} = (await import("../package.json", {with: {type: "json"}})).default as {version: string};
  const program = new CommandClass("inferscope")
    .description("evidence-first benchmark for OpenAI-compatible LLM servers")
    .version(version)
    .showHelpAfterError()
    .addHelpText("after", EXIT_HELP)
    .exitOverride();
  const named = COMMANDS.find((c) => c.names.includes(args[0] ?? ""));
  for (const c of named === undefined ? COMMANDS : [named]) (await c.load()).register(program);
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
  const program = await buildProgram(argv.slice(2));
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
