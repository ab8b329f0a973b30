/**
 * What sets launch command lines apart: each command is read as a program, positional words and
 * `--flag [value]` options; options (and positionals) that every command shares with the same value are
 * common, the rest are each command's own. Used to show experiment variants side by side.
 */

export interface ArgsDiff {
  /** Options every command has with the same value, in the first command's order (e.g. `-m /m.gguf`). */
  common: string[];
  /** Per command: its options that are not common, in its order (`--parallel 2`; `(no --spec-type)`). */
  own: string[][];
}

/** Splits a command line into options: a flag with the value that follows it (when that is not a flag). */
export function options(argv: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const next = argv[i + 1];
    if (a.startsWith("-") && !a.includes("=") && next !== undefined && !/^--?[A-Za-z]/.test(next)) {
      out.push(`${a} ${next}`);
      i++;
    } else out.push(a);
  }
  return out;
}

const flagOf = (opt: string): string => opt.split(" ")[0]!.split("=")[0]!;

/**
 * The diff of several command lines. A flag that some commands lack is shown as `(no FLAG)` for those, so a
 * variant without `--spec-type` reads as such beside one that has it.
 */
export function argsDiff(commands: readonly (readonly string[])[]): ArgsDiff {
  const opts = commands.map(options);
  if (opts.length === 0) return {common: [], own: []};
  const counts = new Map<string, number>();
  for (const o of opts) for (const x of new Set(o)) counts.set(x, (counts.get(x) ?? 0) + 1);
  const isCommon = (x: string) => counts.get(x) === opts.length;
  const common = opts[0]!.filter(isCommon);
  const flags = new Set(opts.flatMap((o) => o.filter((x) => !isCommon(x) && x.startsWith("-")).map(flagOf)));
  const own = opts.map((o) => {
    const mine = o.filter((x) => !isCommon(x));
    const have = new Set(o.map(flagOf));
    for (const f of flags) if (!have.has(f)) mine.push(`(no ${f})`);
    return mine;
  });
  return {common, own};
}
