import type {Command} from "commander";

import {configJsonSchema, configReferenceMarkdown} from "../config/reference.ts";
import {defaultIo, type Io} from "./io.ts";

export function configSchemaCommand(o: {markdown?: boolean}, io: Io): void {
  io.out(o.markdown ? configReferenceMarkdown() : JSON.stringify(configJsonSchema(), null, 2));
}

export function register(program: Command): void {
  program
    .command("config-schema")
    .description("print the JSON Schema of the run config (editor completion), or --markdown the key reference")
    .option("--markdown", "the reference table of every config key instead")
    .action((o: {markdown?: boolean}) => configSchemaCommand(o, defaultIo()));
}
