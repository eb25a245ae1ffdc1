import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseContract, testCases } from '../../src/contract/load';
import { ParsedBody } from '../../src/http/body';
import { matchRequest, splitPath } from '../../src/http/match-request';
import { MAX_NEGATIVE_PER_SCENARIO } from '../../src/limits';
import { isRejection, negativeRequests } from '../../src/runner/negative';
import { startStub, type RunningStub } from '../../src/stub';
import { childEnv } from '../helpers/child-env';
import { runJestApp } from '../helpers/jest-app';
import { startServer, type Running } from '../helpers/servers';

/**
 * Negative tests: generated invalid requests per scenario, each a Jest test
 * expecting a rejection. Against accord's own stub (which answers an invalid
 * request with 400) every one passes; against a lax server that answers 200
 * to anything every one fails, naming the mutation.
 */

const SOAP = `Feature: Pets

  Scenario: getPet
    When POST /ws
    And request-header SOAPAction "urn:getPet"
    And request-body
    """
    <soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/">
      <soapenv:Body>
        <getPet>
          <id>(number)</id>
          <name>(string)</name>
          <tag specmatic_occurs="optional">(string)</tag>
        </getPet>
      </soapenv:Body>
    </soapenv:Envelope>
    """
    Then status 200
    And response-body
    """
    <soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/">
      <soapenv:Body><getPetResponse><ok>(boolean)</ok></getPetResponse></soapenv:Body>
    </soapenv:Envelope>
    """
`;

const JSON_SPEC = `Feature: Orders

  Scenario: Create an order
    When POST /orders
    And request-body {"item": "(string)", "count": "(number)"}
    Then status 201
    And response-body {"id": "(number)"}
`;

describe('the mutations of a scenario', () => {
  const [soap] = testCases(parseContract(SOAP, 'pets.spec'));

  test('named by mutation, deterministic, and each one rejected by the contract itself', () => {
    const names = negativeRequests(soap, 0).map((m) => m.name);
    expect(names).toEqual(
      [
        'wrong SOAPAction',
        'missing Envelope/Body/getPet',
        'unexpected node Envelope/Body/getPet/accordUnexpected',
        'missing Envelope/Body/getPet/id',
        'wrong type Envelope/Body/getPet/id',
        'missing Envelope/Body/getPet/name',
      ].sort((a, b) => names.indexOf(a) - names.indexOf(b)),
    );
    // (string) holds any text and <tag> is optional: no "wrong type name", no "missing tag", no facet without facets.
    expect(names).not.toContain('wrong type Envelope/Body/getPet/name');
    expect(names.some((n) => n.includes('/tag'))).toBe(false);
    expect(names.some((n) => n.startsWith('facet violated'))).toBe(false);
    expect(negativeRequests(soap, 0)).toEqual(negativeRequests(soap, 0));
    for (const m of negativeRequests(soap, 0))
      expect(matchRequest(soap.scenario, m.request, new ParsedBody(m.request.body), splitPath(m.request.path)).mismatches.length).toBeGreaterThan(0);
  });

  test('JSON bodies: missing keys, wrong types, an unexpected key', () => {
    const [tc] = testCases(parseContract(JSON_SPEC, 'orders.spec'));
    expect(
      negativeRequests(tc, 0)
        .map((m) => m.name)
        .sort(),
    ).toEqual(['missing count', 'missing item', 'unexpected key accordUnexpected', 'wrong type (body)', 'wrong type count', 'wrong type item'].sort());
  });

  test('bounded: a request of 500 required numbers keeps at most the limit, and a seed chooses which', () => {
    const fields = Array.from({ length: 500 }, (_, i) => `"f${i}": "(number)"`).join(', ');
    const [tc] = testCases(parseContract(JSON_SPEC.replace('{"item": "(string)", "count": "(number)"}', `{${fields}}`), 'big.spec'));
    const a = negativeRequests(tc, 0);
    expect(a).toHaveLength(MAX_NEGATIVE_PER_SCENARIO);
    expect(negativeRequests(tc, 7).map((m) => m.name)).not.toEqual(a.map((m) => m.name));
  });

  test('a rejection is a 4xx or a 500 with a SOAP Fault', () => {
    const fault = '<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body><s:Fault><faultcode>s:Client</faultcode></s:Fault></s:Body></s:Envelope>';
    expect(isRejection({ status: 400, headers: {}, body: '' })).toBe(true);
    expect(isRejection({ status: 500, headers: {}, body: fault })).toBe(true);
    expect(isRejection({ status: 500, headers: {}, body: 'oops' })).toBe(false);
    expect(isRejection({ status: 200, headers: {}, body: fault })).toBe(false);
  });
});

describe('jest with negative: true', () => {
  let dir: string;
  let stub: RunningStub;
  let lax: Running;
  let crashing: Running;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'accord-negative-'));
    mkdirSync(path.join(dir, 'contracts'));
    writeFileSync(path.join(dir, 'package.json'), '{ "name": "app", "private": true }');
    writeFileSync(path.join(dir, 'contracts', 'pets.spec'), SOAP);
    stub = await startStub({ contracts: path.join(dir, 'contracts'), log: () => undefined });
    lax = await startServer(() => ({
      type: 'text/xml',
      body: '<soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/"><soapenv:Body><getPetResponse><ok>true</ok></getPetResponse></soapenv:Body></soapenv:Envelope>',
    }));
    // As spyne 1.2 answers a value its code did not expect: 500 and a Python stack trace, no Fault.
    crashing = await startServer((req) =>
      req.body.includes('accord-wrong-type')
        ? { status: 500, type: 'text/plain', body: 'Traceback (most recent call last):\n  File "app.py", line 12, in get_pet\nValueError: invalid literal for int()' }
        : {
            type: 'text/xml',
            body: '<soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/"><soapenv:Body><getPetResponse><ok>true</ok></getPetResponse></soapenv:Body></soapenv:Envelope>',
          },
    );
  });

  afterAll(async () => {
    await Promise.all([stub?.close(), lax?.close(), crashing?.close()]);
    rmSync(dir, { recursive: true, force: true });
  });

  function jest(baseUrl: string, env: Record<string, string> = {}, accord: Record<string, unknown> = {}): Promise<{ status: number; output: string }> {
    return runJestApp(dir, { baseUrl, ...accord }, childEnv(env));
  }

  test("accord's own stub rejects every invalid request (400): all pass", async () => {
    const r = await jest(stub.url, {}, { negative: true });
    expect(r.output).toContain('✓ getPet [negative: missing Envelope/Body/getPet/id]');
    expect(r.output).toContain('✓ getPet [negative: wrong SOAPAction]');
    expect(r.output).toMatch(/Tests: +7 passed, 7 total/);
    expect(r.status).toBe(0);
  }, 120_000);

  test('a lax server that accepts everything fails each negative test, naming the mutation; off by default', async () => {
    const r = await jest(lax.url, { ACCORD_NEGATIVE: '1' });
    expect(r.output).toContain('✕ getPet [negative: wrong type Envelope/Body/getPet/id]');
    expect(r.output).toContain('The provider accepted an invalid request (mutation: wrong type Envelope/Body/getPet/id) of scenario "getPet"');
    expect(r.output).toContain('<id>accord-wrong-type</id>');
    expect(r.output).toMatch(/Tests: +6 failed, 1 passed, 7 total/);
    expect(r.status).toBe(1);
    const off = await jest(lax.url);
    expect(off.output).toMatch(/Tests: +1 passed, 1 total/);
    expect(off.status).toBe(0);
  }, 120_000);

  test('a provider that crashes on an invalid request (500, a stack trace, no Fault) fails the test, which says so rather than "accepted"', async () => {
    const r = await jest(crashing.url, {}, { negative: true });
    expect(r.status).toBe(1);
    expect(r.output).toContain('✕ getPet [negative: wrong type Envelope/Body/getPet/id]');
    expect(r.output).toContain('The provider failed on an invalid request (mutation: wrong type Envelope/Body/getPet/id) of scenario "getPet"');
    expect(r.output).toContain('it answered 500 with no SOAP Fault (a server error, not a rejection), a body starting "Traceback (most recent call last):"');
    expect(r.output).not.toContain('The provider accepted an invalid request (mutation: wrong type Envelope/Body/getPet/id)');
    // The others it took: those are "accepted".
    expect(r.output).toContain('The provider accepted an invalid request (mutation: missing Envelope/Body/getPet/id)');
  }, 120_000);
});
