import type { Command } from 'commander';
import type { Io } from '../exit';
import { registerCompatible } from './compatible';
import { registerContracts } from './contracts';
import { registerImport } from './import';
import { registerImportLog } from './import-log';
import { registerProxy } from './proxy';
import { registerStub } from './stub';
import { registerValidate } from './validate';

/**
 * Every command is declared here and lives in its own module under commands/.
 * Each register function adds one command (with its options and help text) to the program.
 */
export function registerCommands(program: Command, io: Io): void {
  registerStub(program, io);
  registerCompatible(program, io);
  registerContracts(program, io);
  registerImport(program, io);
  registerImportLog(program, io);
  registerValidate(program, io);
  registerProxy(program, io);
}
