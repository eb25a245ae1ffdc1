import path from 'node:path';
import { startStub, type RunningStub } from '../../src/stub';
import { CONTRACTS, call, petRequest, post, runCli, startStubProcess } from './helpers';

/** --strict: only expectations and examples answer; everything else gets 400 saying why. */
const PETS_SPEC = path.join(CONTRACTS, 'pets', 'api_pets_v1.spec');
const PET_SPEC = path.join(CONTRACTS, 'soap', 'api_pet_v1.spec');
let stub: RunningStub;

beforeAll(async () => {
  stub = await startStub({ contracts: [PETS_SPEC, PET_SPEC], strict: true, log: () => {} });
});
afterAll(() => stub.close());

it('answers Examples rows and expectations, and refuses a request only the contract would answer', async () => {
  const row = await call(`${stub.url}/pets/42`, { method: 'GET' });
  expect(row.status).toBe(200);
  expect(JSON.parse(row.body)).toEqual({ petid: 42 });
  const other = await call(`${stub.url}/pets/43`, { method: 'GET' });
  expect(other.status).toBe(400);
  expect(other.body).toContain('accord stub (strict): no expectation or example answers GET /pets/43');
  expect(other.body).toContain('It fits "Fetch a pet by id"');
  stub.expect({ request: { method: 'POST', path: '/ws', body: petRequest('8') } });
  expect((await post(`${stub.url}/ws`, petRequest('8'))).status).toBe(200);
  expect((await post(`${stub.url}/ws`, petRequest('9'))).status).toBe(400);
  // A request that fits nothing still gets the ordinary report.
  expect((await post(`${stub.url}/ws`, petRequest('nine'))).body).toContain('no scenario matches POST /ws');
  expect(stub.calls({ unmatched: true }).map((c) => c.path)).toEqual(['/pets/43', '/ws', '/ws']);
});

it('is the CLI option --strict, and --delay is checked', async () => {
  const p = await startStubProcess([PETS_SPEC, '--port', '0', '--strict', '--delay', '0-5']);
  try {
    expect(p.stdout()).toContain('Strict: only expectations and examples answer.');
    expect((await call(`${p.url}/pets/43`, { method: 'GET' })).status).toBe(400);
    expect((await call(`${p.url}/pets/10`, { method: 'GET' })).status).toBe(200);
  } finally {
    p.child.kill('SIGTERM');
    await p.exited;
  }
  const bad = await runCli(['stub', PETS_SPEC, '--delay', 'soon']);
  expect(bad.code).toBe(2);
  expect(bad.stderr).toContain('--delay "soon" is not a number of milliseconds');
});
