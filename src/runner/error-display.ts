import { formatLocation } from '../errors';

/**
 * An Error whose stack is the report plus one frame pointing at the contract
 * line: Jest prints the report and a code frame of the .spec file, never
 * accord's own stack.
 */
export function reportError(report: string, file: string, line: number): Error {
  const err = new Error(report);
  err.stack = `${report}\n    at ${formatLocation({ file, line, column: 1 })}`;
  return err;
}
