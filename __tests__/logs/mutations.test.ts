import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { AccordError } from '../../src/errors';
import { importLogs, parseGenerated, verifyLogs } from '../../src/logs';
import { mutant, seeded } from '../helpers/mutate';
import { LOGS, scratch } from './helpers';
import { depth } from '../helpers/depth';

/**
 * Every input is hostile: damaged copies of every sample log either import
 * into a contract that reads back and matches every call it was made from, or
 * are refused with an AccordError. Fuzzing like this found a method that could
 * not be written, query names that never matched, an address read as a path
 * and mixed content that was dropped.
 */
// A third in `npm test` (helpers/depth.ts); CI makes all 300.
const MUTANTS = depth(300, 100);
const PALETTE = [
  '<',
  '>',
  '/',
  '"',
  '{',
  '}',
  '[',
  ']',
  ':',
  '\n',
  ' ',
  '&amp;',
  '<![CDATA[x]]>',
  'ID: 1\n',
  'Payload: ',
  '<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/">',
  '</soap:Envelope>',
  '2026-01-01 10:00:00 DEBUG ',
  '"text": "',
  '\\"',
  '0',
  'true',
  '-1.5e3',
];
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
        throw new Error(`${JSON.stringify(options)}: ${(e as Error)?.stack ?? e}\n--- mutant (${sample.ext}) ---\n${text}`, { cause: e });
      }
    }
  }
  // Proportional to the mutants made: over 300 and 20 of the full 300.
  expect(imported).toBeGreaterThan(MUTANTS);
  expect(refused).toBeGreaterThan(MUTANTS / 15);
});

/** Values a HAR field can hold in a recording some tool got wrong: other types, odd strings, empty things. */
const ODD: unknown[] = [
  null,
  '',
  0,
  -1,
  1.5,
  99999,
  '200',
  'post',
  'GET ',
  'x y',
  '/relative',
  'http://h',
  'http://h/a b?c=d&&=e',
  'ftp://x/y',
  {},
  [],
  true,
  'application/json; charset=utf-8',
  'text/xml',
  '{"a":[1,{"b":null}]}',
  '<a/>',
  '{"a":1',
  'null',
  '[]',
  '"str"',
  '\u0000',
  'é',
  'HEAD',
];

test('150 HAR recordings with fields of the wrong type or value import into a contract every call matches, or are refused', async () => {
  const har = JSON.parse(readFileSync(path.join(LOGS, 'recording.har'), 'utf8')) as Record<string, unknown>;
  const fields: string[][] = [];
  const collect = (v: unknown, at: string[]) => {
    if (v && typeof v === 'object') {
      for (const k of Object.keys(v)) {
        fields.push([...at, k]);
        collect((v as Record<string, unknown>)[k], [...at, k]);
      }
    }
  };
  collect(har, []);
  const r = seeded(20261125);
  let imported = 0;
  for (let i = 0; i < 150; i++) {
    const copy = JSON.parse(JSON.stringify(har)) as Record<string, unknown>;
    for (let k = 1 + Math.floor(r() * 4); k > 0; k--) {
      const at = fields[Math.floor(r() * fields.length)];
      let o: unknown = copy;
      for (const s of at.slice(0, -1)) o = o && typeof o === 'object' ? (o as Record<string, unknown>)[s] : undefined;
      if (!o || typeof o !== 'object') continue;
      if (r() < 0.15) delete (o as Record<string, unknown>)[at[at.length - 1]];
      else (o as Record<string, unknown>)[at[at.length - 1]] = ODD[Math.floor(r() * ODD.length)];
    }
    const file = tmp.write('mutant.har', JSON.stringify(copy, null, 1));
    for (const options of [{}, { skipInvalid: true, examples: true }]) {
      try {
        const result = await importLogs([file], options);
        if (!result.contract || (!('skipInvalid' in options) && result.report.problems.length > 0)) continue;
        const unmatched = await verifyLogs(parseGenerated(result.contract, 'mutant.spec'), [file], options);
        if (unmatched.length > 0) throw new Error(`${unmatched.length} logged calls do not match: ${JSON.stringify(unmatched[0])}`);
        imported++;
      } catch (e) {
        if (e instanceof AccordError) continue;
        throw new Error(`${JSON.stringify(options)}: ${(e as Error)?.stack ?? e}\n--- mutant ---\n${JSON.stringify(copy)}`, { cause: e });
      }
    }
  }
  expect(imported).toBeGreaterThan(200);
});
