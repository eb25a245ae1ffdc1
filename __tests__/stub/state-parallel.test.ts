import { rmSync } from 'node:fs';
import { runParallelJest, writeStubProject } from '../helpers/parallel-jest';

/**
 * Named state in parallel Jest workers (docs/stub.md "State across calls"): one stub from a
 * globalSetup, two test files in two workers, each with its own scope, each driving the same
 * machine name ("order") through place → cancel and back with reset. Each file's answers follow
 * only its own moves: a state shared between the files would answer the other's status.
 * Needs `npm run build`.
 */
const FILES = 2;
const ROUNDS = 25;
let dir: string;

beforeAll(() => {
  const files: Record<string, string[]> = {};
  for (let f = 0; f < FILES; f++) {
    files[`order-${f}.test.js`] = [
      'const { connectStub } = require(process.env.ACCORD_PACKAGE);',
      'const stub = connectStub(process.env.PETSTORE_URL).scope();',
      'const status = async () => (await (await fetch(`${stub.url}/pets/5`)).json()).petid;',
      'beforeEach(async () => {',
      '  await stub.reset();',
      // GET /pets/5 answers 1 while "order" is Started, 2 once placed, 3 once cancelled; GET /pets/6 places, GET /pets/7 cancels.
      "  await stub.expect({ request: { method: 'GET', path: '/pets/5' }, response: { body: { petid: 1 } }, state: { name: 'order', requires: 'Started' } });",
      "  await stub.expect({ request: { method: 'GET', path: '/pets/5' }, response: { body: { petid: 2 } }, state: { name: 'order', requires: 'placed' } });",
      "  await stub.expect({ request: { method: 'GET', path: '/pets/5' }, response: { body: { petid: 3 } }, state: { name: 'order', requires: 'cancelled' } });",
      "  await stub.expect({ request: { method: 'GET', path: '/pets/6' }, state: { name: 'order', requires: 'Started', becomes: 'placed' } });",
      "  await stub.expect({ request: { method: 'GET', path: '/pets/7' }, state: { name: 'order', requires: 'placed', becomes: 'cancelled' } });",
      '});',
      `for (let i = 0; i < ${ROUNDS}; i++) {`,
      '  test(`round ${i}`, async () => {',
      '    expect(await status()).toBe(1);',
      `    if (i % ${FILES} === ${f}) return;`,
      '    await fetch(`${stub.url}/pets/6`);',
      '    expect(await status()).toBe(2);',
      '    await new Promise((r) => setTimeout(r, 5));',
      '    await fetch(`${stub.url}/pets/7`);',
      '    expect(await status()).toBe(3);',
      "    expect(await stub.states()).toEqual([{ name: 'order', state: 'cancelled' }]);",
      '    const moves = (await stub.calls()).filter((c) => c.state && c.state.was !== c.state.now).map((c) => `${c.state.was}>${c.state.now}`);',
      "    expect(moves).toEqual(['Started>placed', 'placed>cancelled']);",
      '  });',
      '}',
    ];
  }
  dir = writeStubProject('accord-state-', files);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('two Jest workers, one stub, a scope each: each file moves and resets only its own state machine', async () => {
  const r = await runParallelJest(dir, FILES);
  expect(r.output).toMatch(new RegExp(`Tests: +${FILES * ROUNDS} passed, ${FILES * ROUNDS} total`));
  expect(r.output).toMatch(new RegExp(`Test Suites: +${FILES} passed`));
  expect(r.status).toBe(0);
}, 130_000);
