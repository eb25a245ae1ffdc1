import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { AccordError } from '../../src/errors';
import { startStub } from '../../src/stub';
import { CONTRACTS, PET_SPEC, call, petRequest, post, startStubProcess, type StubProcess } from './helpers';

/**
 * No single request may end the stub: each hostile request below once threw past the handler
 * (Node printed a stack and the process exited). Run against `accord stub` as a process, so an
 * uncaught exception shows as an exit; every hostile request is followed by an ordinary one that
 * must still be answered.
 */
const PETS_SPEC = path.join(CONTRACTS, 'pets', 'api_pets_v1.spec');
const JSON_TYPE = { 'content-type': 'application/json' };
let stub: StubProcess;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'accord-crash-'));
  stub = await startStubProcess([PETS_SPEC, PET_SPEC, '--port', '0']);
});
afterAll(async () => {
  stub.child.kill('SIGTERM');
  await stub.exited;
  rmSync(dir, { recursive: true, force: true });
});

/** The stub still answers an ordinary request, and its process is still running. */
async function stillServing(s: StubProcess = stub): Promise<void> {
  const res = await call(`${s.url}/pets/10`, { method: 'GET' });
  expect(res.status).toBe(200);
  expect(s.child.exitCode).toBeNull();
}

describe('the admin API answers every request', () => {
  it('a malformed percent-escape in an expectation id is a 400, on both paths', async () => {
    for (const p of ['/_accord/expectations/%zz', '/_specmatic/http-stub/%E0%A4%A', '/_accord/expectations/%']) {
      const res = await call(`${stub.url}${p}`, { method: 'DELETE' });
      expect([p, res.status]).toEqual([p, 400]);
      expect(res.body).toContain('is not valid percent-encoding');
      await stillServing();
    }
  });

  it('an expectation whose response header is not valid HTTP is refused when set, with or without a delay', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ 'x-a': 'a\r\nb' }, 'x-a'],
      [{ 'bad name': 'v' }, 'bad name'],
      [{ 'x-price': '5\u20ac' }, 'x-price'],
      [{ 'x-nul': 'a\u0000b' }, 'x-nul'],
    ];
    for (const [headers, name] of cases) {
      for (const delayMs of [undefined, 30]) {
        const res = await post(
          `${stub.url}/_accord/expectations`,
          JSON.stringify({ request: { method: 'GET', path: '/pets/11' }, response: { headers, body: { petid: 11 } }, delayMs }),
          JSON_TYPE,
        );
        expect([name, delayMs, res.status]).toEqual([name, delayMs, 400]);
        expect(res.body).toContain('has a response header that is not valid HTTP');
        expect(res.body).not.toMatch(/[\r\u0000]/);
        await stillServing();
        expect((await call(`${stub.url}/pets/11`, { method: 'GET' })).status).toBe(200);
      }
    }
    // Specmatic's form, with its delay.
    const specmatic = await post(
      `${stub.url}/_specmatic/expectations`,
      JSON.stringify({
        'http-request': { method: 'GET', path: '/pets/12' },
        'http-response': { status: 200, headers: { 'x-b': 'one\ntwo' }, body: { petid: 12 } },
        'delay-in-seconds': 0.03,
      }),
      JSON_TYPE,
    );
    expect(specmatic.status).toBe(400);
    await stillServing();
    expect((await call(`${stub.url}/pets/12`, { method: 'GET' })).status).toBe(200);
  });

  it('an unusable scope id is a 400', async () => {
    for (const p of ['/_scope/%zz/pets/10', `/_scope/${'a'.repeat(65)}/pets/10`, '/_scope//pets/10']) {
      const res = await call(`${stub.url}${p}`, { method: 'GET' });
      expect([p, res.status]).toEqual([p, 400]);
      await stillServing();
    }
  });
});

describe('example files', () => {
  it('an example file whose response header is not valid HTTP stops the stub from starting, with the file named', async () => {
    const spec = path.join(dir, 'api_pet_v1.spec');
    copyFileSync(PET_SPEC, spec);
    mkdirSync(path.join(dir, 'api_pet_v1_examples'));
    writeFileSync(
      path.join(dir, 'api_pet_v1_examples', 'bad.json'),
      JSON.stringify({ 'http-request': { method: 'POST', path: '/ws', body: petRequest('3') }, 'http-response': { status: 200, headers: { 'X-Bad': 'a\rb' } } }),
    );
    const refused = await startStub({ contracts: spec, log: () => {} }).then(
      (s) => s.close().then(() => undefined),
      (e: unknown) => e,
    );
    expect(refused).toBeInstanceOf(AccordError);
    expect((refused as AccordError).describe()).toMatch(/bad\.json.*has a response header that is not valid HTTP: "x-bad"/s);
  });
});

describe('a bug still gets an answer, never an exit', () => {
  it('a contract header value Node cannot send answers 500 naming an internal error, after a delay too; the stub keeps serving', async () => {
    const spec = path.join(dir, 'price.spec');
    writeFileSync(
      spec,
      [
        'Feature: prices',
        '  Scenario: a price in euros',
        '    When GET /price',
        '    Then status 200',
        '    And response-header X-Price 5\u20ac',
        '',
        '  Scenario: a header name no HTTP can carry',
        '    When GET /odd',
        '    Then status 200',
        '    And response-header X@A hello',
        '',
      ].join('\n'),
    );
    const delayed = await startStubProcess([spec, PETS_SPEC, '--port', '0', '--delay', '20']);
    try {
      // Said at start-up, not at every answer.
      expect(delayed.stdout()).toMatch(/a header name no HTTP can carry.*response header name "X@A" is not valid HTTP/s);
      for (let i = 0; i < 2; i++) {
        const res = await call(`${delayed.url}/price`, { method: 'GET' });
        expect(res.status).toBe(500);
        expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
        expect(res.body).toContain('internal error (please report it) answering GET /price');
        await stillServing(delayed);
      }
      expect(delayed.stderr()).toContain('internal error');
    } finally {
      delayed.child.kill('SIGTERM');
      await delayed.exited;
    }
  });
});
