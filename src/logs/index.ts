import { parseContract } from '../contract/load';
import type { Contract, Scenario } from '../contract/model';
import { AccordError, InternalError } from '../errors';
import { readExchanges, type ImportLogOptions } from './import-log';
import { checkExchange } from './verify';
import type { Mismatch } from '../pattern/match/mismatch';

export { importLogs, readExchanges, REPORT_KEPT, type ImportLogOptions, type ImportResult, type LogReport, type Unpaired } from './import-log';
export { checkExchange, toHttpRequest, toHttpResponse } from './verify';
export type { Exchange } from './pair';
export type { DecodedMessage } from './decode';
export { DEFAULT_LOG_LIMITS, type LogLimits } from './limits';
export { readableTwice, STDIN } from './read-log';
export { describeCheck, describeProblems, describeReport } from './report';

/** The generated text parsed back; failing to parse is a bug in the writer, never the user's. */
export function parseGenerated(text: string, file: string): Contract {
  try {
    return parseContract(text, file);
  } catch (e) {
    if (e instanceof AccordError) throw new InternalError(`accord wrote a contract it cannot read back: ${e.describe()}`, { cause: e });
    throw e;
  }
}

export interface UnmatchedCall {
  at: { file: string; line: number };
  mismatches: Mismatch[];
  /** The call's SOAP operation (its request's, else its answer's) and the status it was answered with. */
  operation?: string;
  status?: number;
}

/** Reads the logs again and checks every request/response pair against the contract. */
export async function verifyLogs(contract: Contract, files: string[], options: ImportLogOptions = {}): Promise<UnmatchedCall[]> {
  const bad: UnmatchedCall[] = [];
  // The scenario that last accepted a call of the same method and operation is tried first: on a path that
  // serves many operations (every SOAP operation on POST /ws), matching each call against the scenarios of
  // other operations before its own was most of a check pass. Kept for as many keys as there are scenarios (a
  // guess: a wrong one costs one match more, and a hostile log of ever-new names cannot grow the table).
  const accepted = new Map<string, Scenario>();
  await readExchanges(
    files,
    (x) => {
      const key = `${x.request.method ?? ''} ${x.request.operation ?? ''}`;
      const r = checkExchange(contract, x, options.path, accepted.get(key));
      if (!r.scenario)
        bad.push({
          at: x.request.at,
          mismatches: r.mismatches,
          operation: x.request.operation ?? x.response.operation,
          status: x.response.status ?? (x.response.fault ? 500 : 200),
        });
      else if (accepted.has(key) || accepted.size < contract.scenarios.length) accepted.set(key, r.scenario);
    },
    options,
  );
  return bad;
}
