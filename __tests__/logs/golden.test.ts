import path from 'node:path';
import { importLogs } from '../../src/logs';
import { expectGolden } from '../helpers/golden';
import { LOGS } from './helpers';

/**
 * Golden files: the contract written for each sample log, as a user reads it.
 * A change to the writer shows up here as a diff to review. Run
 * `npm run golden` to rewrite the expected files after checking the change.
 */
const EXPECTED = path.join(LOGS, 'expected');
const CASES: [string, { examples?: boolean }][] = [
  ['cxf-interceptors.log', {}],
  ['cxf-logging-feature.log', {}],
  ['spring-ws.log', {}],
  ['pretty-envelopes.log', {}],
  ['recording.har', {}],
  ['cxf-interceptors.log', { examples: true }],
  ['recording.har', { examples: true }],
];

describe.each(CASES)('the contract written for %s %j', (log, options) => {
  it('is the expected one', async () => {
    const { contract } = await importLogs([log], { ...options, cwd: LOGS });
    const name = `${log.replace(/\.[^.]+$/, '')}${options.examples ? '.examples' : ''}.spec`;
    const file = path.join(EXPECTED, name);
    expectGolden(file, contract!);
  });
});
