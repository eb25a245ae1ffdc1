import path from 'node:path';
import { request } from 'undici';
import { AccordError } from '../../src/errors';
import { STUB_LIMITS } from '../../src/limits';
import { startStub, type RunningStub } from '../../src/stub';
import { CONTRACTS, call } from './helpers';
import { accordErrorOf } from '../helpers/accord-error';

/**
 * Expectations are bounded by the bytes they hold, not only by their number: 220 expectations of
 * 9 MB each once took a stub to 2.5 GB. Each is bounded by the stub's body limit, all together by
 * STUB_LIMITS.expectationBytes; the list of them is sent however long it is.
 */
const PETS_SPEC = path.join(CONTRACTS, 'pets', 'api_pets_v1.spec');
const MB10 = 10_000_000;
let stub: RunningStub;

beforeAll(async () => {
  stub = await startStub({ contracts: PETS_SPEC, log: () => {} });
});
afterAll(() => stub.close());
afterEach(() => stub.reset());

/** An expectation holding `bytes` bytes (a request header value: only compared, so cheap to hold and check). */
const padded = (id: number, pad: string) => ({ request: { method: 'GET', path: `/pets/${id}`, headers: { 'x-pad': pad } }, response: { body: { petid: id } } });

const refusal = (run: () => unknown): AccordError => accordErrorOf(run, 'not refused');

it('refuses one expectation larger than the body limit', async () => {
  const small = await startStub({ contracts: PETS_SPEC, maxBodyBytes: 64 * 1024, log: () => {} });
  try {
    const e = refusal(() => small.expect(padded(1, 'a'.repeat(70 * 1024))));
    expect(e.code).toBe('ACCORD_ERR_LIMIT');
    expect(e.message).toMatch(/expectation refused: it holds \d+ bytes, more than the stub's body limit of 65536 bytes/);
  } finally {
    await small.close();
  }
});

it('refuses expectations past the total bound, with a 4xx over HTTP; removing some makes room again', async () => {
  const pad = 'a'.repeat(MB10);
  const fit = Math.floor(STUB_LIMITS.expectationBytes / (MB10 + 100));
  for (let i = 0; i < fit; i++) stub.expect(padded(i, pad));
  const e = refusal(() => stub.expect(padded(99, pad)));
  expect(e.code).toBe('ACCORD_ERR_LIMIT');
  expect(e.message).toContain(`would pass the stub's bound of ${STUB_LIMITS.expectationBytes} (remove some, or reset)`);
  const overHttp = await call(`${stub.url}/_accord/expectations`, {
    method: 'POST',
    body: JSON.stringify(padded(98, 'b'.repeat(9_000_000))),
    headers: { 'content-type': 'application/json' },
  });
  expect(overHttp.status).toBe(413);
  expect(overHttp.body).toContain('would pass the stub');
  // The stub still answers, and room comes back as expectations go.
  expect((await call(`${stub.url}/pets/5`, { method: 'GET' })).status).toBe(200);
  stub.reset();
  stub.expect(padded(99, pad));
});

it('lists expectations whose JSON is longer than the longest string V8 can make', async () => {
  // A control character is six characters in JSON: 10 MB of them is 60 M, thirteen of those pass V8's ~536 M.
  const pad = '\u0001'.repeat(MB10);
  const n = Math.floor(STUB_LIMITS.expectationBytes / (MB10 + 100));
  expect(n * 6 * MB10).toBeGreaterThan(2 ** 29);
  for (let i = 0; i < n; i++) stub.expect(padded(i, pad));
  const res = await request(`${stub.url}/_accord/expectations`);
  expect(res.statusCode).toBe(200);
  let bytes = 0;
  let tail = '';
  for await (const chunk of res.body) {
    bytes += (chunk as Buffer).length;
    tail = (tail + (chunk as Buffer).toString('latin1')).slice(-200);
  }
  expect(bytes).toBeGreaterThan(2 ** 29);
  expect(tail).toMatch(/"petid":12\}\}\}\]$/);
  expect((await call(`${stub.url}/pets/5`, { method: 'GET' })).status).toBe(200);
}, 60_000);
