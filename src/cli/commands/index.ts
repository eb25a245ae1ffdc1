import type { Command } from 'commander';
import type { Io } from '../exit';
import { registerCompatible } from './compatible';
import { registerConfig } from './config';
import { registerContracts } from './contracts';
import { registerExport } from './export';
import { registerImport } from './import';
import { registerImportLog } from './import-log';
import { registerImportSoapui } from './import-soapui';
import { registerProxy } from './proxy';
import { registerStub } from './stub';
import { registerTest } from './test';
import { registerValidate } from './validate';

type Register = (program: Command, io: Io) => void;

/**
 * Every command is declared here and lives in its own module under commands/.
 * Each register function adds one command (with its options and help text) to the program;
 * the order here is the order of `accord --help`.
 */
const COMMANDS: Record<string, Register[]> = {
  stub: [registerStub],
  test: [registerTest],
  compatible: [registerCompatible],
  contracts: [registerContracts],
  config: [registerConfig],
  import: [registerImport, registerImportLog, registerImportSoapui],
  export: [registerExport],
  validate: [registerValidate],
  proxy: [registerProxy],
};

/**
 * Declares the commands. When the first argument names one, only that one: declaring all eight
 * (some 80 options and their help) cost every `accord stub` start a few ms, and a command's own
 * parsing, help and errors do not depend on its siblings. Anything else (`--help`, `help stub`,
 * a misspelt command that deserves a suggestion) gets them all.
 */
export function registerCommands(program: Command, io: Io, first?: string): void {
  const only = first !== undefined && Object.hasOwn(COMMANDS, first) ? COMMANDS[first] : undefined;
  for (const register of only ?? Object.values(COMMANDS).flat()) register(program, io);
}
