import path from 'node:path';
import { formatLocation } from '../errors';
import { inert, printable } from '../printable';

/**
 * An Error whose stack is the report plus one frame pointing at the contract
 * line: Jest prints the report and a code frame of the .spec file, never
 * accord's own stack. The report quotes the service and the contract, so it is
 * made printable here, the one door to Jest's output, and inert: Jest indents the report, and a
 * CI runner reads a line that starts with `::` after white space as a command, so a service's body
 * line `::warning::...` or `::add-mask::...` is shown as `\x3a:warning::...`.
 */
/**
 * A file as a message names it: from the folder the run started in (the project), not as an
 * absolute path of the build machine; a file outside that folder keeps its whole path.
 */
export function shownPath(file: string, from: string = process.cwd()): string {
  if (!path.isAbsolute(file)) return file;
  const rel = path.relative(from, file);
  return rel === '' || rel.startsWith('..') || path.isAbsolute(rel) ? file : rel.split(path.sep).join('/');
}

export function reportError(report: string, file: string, line: number): Error {
  const shown = inert(printable(report));
  const err = new Error(shown);
  err.stack = `${shown}\n    at ${formatLocation({ file: printable(file, { multiline: false }), line, column: 1 })}`;
  return err;
}
