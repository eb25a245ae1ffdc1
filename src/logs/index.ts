import { parseContract } from '../contract/load';
import type { Contract } from '../contract/model';
import { AccordError, InternalError } from '../errors';

export { importLogs, readExchanges, REPORT_KEPT, type ImportLogOptions, type ImportResult, type LogReport, type Unpaired } from './import-log';
export { checkExchange, toHttpRequest, toHttpResponse, verifyLogs, type UnmatchedCall } from './verify';
export { addMisfits, pinRecordedFaults, RECORDED_SUFFIX } from './misfits';
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
