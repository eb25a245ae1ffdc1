import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { AccordError } from '../../src/errors';
import { importLogs, parseGenerated, verifyLogs } from '../../src/logs';
import { mutant, seeded } from '../helpers/mutate';
import { LOGS, scratch } from './helpers';

/**
 * Every input is hostile: damaged copies of every sample log either import
 * into a contract that reads back and matches every call it was made from, or
 * are refused with an AccordError. Fuzzing like this found a method that could
 * not be written, query names that never matched, an address read as a path
 * and mixed content that was dropped.
 */
const MUTANTS = 300;
const PALETTE = ['<', '>', '/', '"', '{', '}', '[', ']', ':', '\n', ' ', '&amp;', '<![CDATA[x]]>', 'ID: 1\n', 'Payload: ', '<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/">', '</soap:Envelope>', '2026-01-01 10:00:00 DEBUG ', '"text": "', '\\"', '0', 'true', '-1.5e3'];
const tmp = scratch();
afterAll(() => tmp.cleanup());

const samples = readdirSync(LOGS)
  .filter((f) => /\.(log|har)$/.test(f))
  .map((f) => ({ ext: path.extname(f), text: readFileSync(path.join(LOGS, f), 'utf8') }));

test(`${MUTANTS} damaged logs import into a contract every call matches, or are refused with a message`, async () => {
  const r = seeded(20261124);
  let imported = 0;
  let refused = 0;
  for (let i = 0; i < MUTANTS; i++) {
    const sample = samples[Math.floor(r() * samples.length)];
    const text = mutant(sample.text, r, PALETTE, 1 + Math.floor(r() * 4));
    const file = tmp.write(`mutant${sample.ext}`, text);
    for (const options of [{}, { skipInvalid: true, examples: true }]) {
      try {
        const result = await importLogs([file], options);
        // Like the CLI: strict mode writes nothing when a message cannot be read.
        if (!result.contract || (!('skipInvalid' in options) && result.report.problems.length > 0)) {
          refused++;
          continue;
        }
        const contract = parseGenerated(result.contract, 'mutant.spec');
        const unmatched = await verifyLogs(contract, [file], options);
        if (unmatched.length > 0) throw new Error(`${unmatched.length} logged calls do not match`);
        imported++;
      } catch (e) {
        if (e instanceof AccordError) {
          refused++;
          continue;
        }
        throw new Error(`${JSON.stringify(options)}: ${(e as Error)?.stack ?? e}\n--- mutant (${sample.ext}) ---\n${text}`);
      }
    }
  }
  expect(imported).toBeGreaterThan(300);
  expect(refused).toBeGreaterThan(20);
});
