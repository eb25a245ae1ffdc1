import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadContract, testCases } from '../../src/contract/load';
import { AccordError } from '../../src/errors';
import { runCase } from '../../src/runner/run-case';
import { startStub, type RunningStub } from '../../src/stub';
import { startServer } from '../helpers/servers';
import { CONTRACTS, PET_SPEC, call, petRequest, post } from '../stub/helpers';
import { cpuMs } from '../helpers/timing';

/**
 * Issue 11, defect 1: `(number)` and `(email)` were decided by expressions that
 * backtrack quadratically, so 30,000 digits and an `x` held the stub for
 * seconds and a few megabytes for hours. Each place a hostile scalar arrives is
 * tried with 30,000 characters first (seconds before the fix: the test fails
 * there, rather than hang on the megabyte) and then with a megabyte, and must
 * be decided in a bounded CPU time, HTTP round trip included.
 */
const BOUND_MS = 1_000;
const SIZES = [30_000, 1 << 20];

async function decidedFast(decide: (size: number) => Promise<unknown>, sizes = SIZES): Promise<void> {
  for (const size of sizes) {
    const ms = await cpuMs(() => decide(size));
    if (process.env.ACCORD_SHOW_TIMES) process.stderr.write(`${expect.getState().currentTestName} size ${size}: ${ms.toFixed(1)} ms CPU\n`);
    expect({ size, ms: ms < BOUND_MS ? 'fast' : ms }).toEqual({ size, ms: 'fast' });
  }
}

const digits = (size: number) => `${'1'.repeat(size)}x`;

// The AST cache hashes each contract with Math.imul, which is ~100 times slower inside Jest's sandbox than in
// Node (0.8 s per MB here, 10 ms outside): off, so the Examples test measures the check, not the sandbox.
process.env.ACCORD_CACHE = '0';

let dir: string;
let stub: RunningStub;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'accord-redos-'));
  writeFileSync(
    path.join(dir, 'forms.spec'),
    [
      'Feature: Hostile scalars',
      '',
      '  Scenario: Count',
      '    When POST /count',
      '    And form-field n (number)',
      '    Then status 200',
      '',
      '  Scenario: Subscribe',
      '    When POST /subscribe',
      '    And request-body {"email": "(email)"}',
      '    Then status 200',
      '',
    ].join('\n'),
  );
  stub = await startStub({ contracts: [CONTRACTS, dir], port: 0, host: '127.0.0.1', log: () => {} });
});
afterAll(async () => {
  await stub.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('a hostile (number) or (email) is decided in linear time', () => {
  it('in a SOAP request node: 400, at once', async () => {
    await decidedFast(async (size) => {
      const res = await post(`${stub.url}/ws`, petRequest(digits(size)));
      expect(res.status).toBe(400);
    });
  });

  it('in a path parameter (the URL is bounded by the 16 KB header limit)', async () => {
    await decidedFast(
      async (size) => {
        const res = await call(`${stub.url}/pets/${digits(size)}`, { method: 'GET' });
        expect(res.status).toBe(400);
      },
      [15_000],
    );
  });

  it('in a form field', async () => {
    await decidedFast(async (size) => {
      const res = await post(`${stub.url}/count`, `n=${digits(size)}`, { 'content-type': 'application/x-www-form-urlencoded' });
      expect(res.status).toBe(400);
    });
  });

  it('in an (email): a long domain of dots', async () => {
    await decidedFast(async (size) => {
      const res = await post(`${stub.url}/subscribe`, JSON.stringify({ email: `a@${'.'.repeat(size)}@` }), { 'content-type': 'application/json' });
      expect(res.status).toBe(400);
    });
  });

  it('in a service response the Jest runner checks', async () => {
    const tc = testCases(loadContract(PET_SPEC)).find((t) => t.name.startsWith('Get a pet by id'))!;
    let size = 0;
    const env = (id: string) =>
      `<soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/"><soapenv:Body><pet:getPetResponse xmlns:pet="http://example.com/petstore"><pet:id>${id}</pet:id><pet:name>a</pet:name><pet:type>b</pet:type><pet:status>c</pet:status></pet:getPetResponse></soapenv:Body></soapenv:Envelope>`;
    const service = await startServer(() => ({ type: 'text/xml', body: env(digits(size)) }));
    try {
      await decidedFast(async (n) => {
        size = n;
        const r = await runCase(tc, { baseUrl: service.url, timeoutMs: 30_000 });
        expect(r.passed).toBe(false);
        expect(r.mismatches.map((m) => m.path)).toEqual(['RESPONSE.BODY Envelope/Body/getPetResponse/id']);
      });
    } finally {
      await service.close();
    }
  });

  it('in an Examples cell, checked when the stub starts: refused at once, and quoted cut short', async () => {
    await decidedFast(async (size) => {
      const file = path.join(dir, `cell-${size}.spec`);
      writeFileSync(
        file,
        [
          'Feature: Cells',
          '',
          '  Scenario Outline: Fetch',
          '    When GET /pets/(petid:number)',
          '    Then status 200',
          '',
          '    Examples:',
          '      | petid |',
          `      | ${digits(size)} |`,
          '',
        ].join('\n'),
      );
      const started = startStub({ contracts: [file], port: 0, host: '127.0.0.1', log: () => {} });
      const e = await started.then(
        (s) => s.close().then(() => undefined),
        (err: unknown) => err,
      );
      expect(e).toBeInstanceOf(AccordError);
      const message = (e as AccordError).describe();
      expect(message).toContain(`Examples value "${'1'.repeat(80)}… (${size + 1 - 80} more characters)" in column "petid" fits no place`);
      expect(message.length).toBeLessThan(1_000);
    });
  });
});
