import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { loadContract, parseContract, testCases } from '../../src/contract/load';
import type { Contract } from '../../src/contract/model';
import { ParsedBody } from '../../src/http/body';
import { buildRequest } from '../../src/http/build-request';
import { matchRequest, splitPath } from '../../src/http/match-request';
import { matchResponse } from '../../src/http/match-response';
import { generateBody } from '../../src/pattern/generate/index';
import { formatMismatch } from '../../src/pattern/match/mismatch';
import { createRandom } from '../../src/pattern/random';
import { bodyKind } from '../../src/pattern/generate/index';
import { SPEC_CORPUS, specCorpus, withCorpus } from '../helpers/corpus';
import { legacyContracts } from '../helpers/spec-fixtures';

const ROOT = path.join(__dirname, '..', '..');

function specFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = path.join(dir, f);
    return statSync(p).isDirectory() ? specFiles(p) : /\.(spec|qontract|contract)$/.test(f) ? [p] : [];
  });
}

function corpusContracts(): Contract[] {
  return (
    specCorpus()
      .filter((r) => r.intent === 'valid')
      .map((r) => loadContract(path.join(SPEC_CORPUS, r.file)))
      // Wrappers take their real types from an OpenAPI or WSDL file that is not in the corpus.
      .filter((c) => !c.notes.some((n) => n.keyword === 'openapi' || n.keyword === 'wsdl'))
  );
}

/** Whatever accord generates from a contract must match that same contract. */
function roundTrip(contract: Contract, seed: number): string[] {
  const problems: string[] = [];
  for (const tc of testCases(contract)) {
    if (tc.scenario.unsupported) continue;
    const req = buildRequest(tc, seed);
    const m = matchRequest(tc.scenario, req, new ParsedBody(req.body), splitPath(req.path));
    for (const x of m.mismatches) problems.push(`${contract.file} "${tc.name}" request: ${formatMismatch(x)}`);
    const s = tc.scenario;
    if (s.response.body) {
      const body = generateBody(s.response.body, { scope: s.scope, rng: createRandom(seed) });
      const headers: Record<string, string> = {};
      for (const h of s.response.headers) headers[h.name.toLowerCase()] = generateBody(h.pattern, { scope: s.scope, rng: createRandom(seed) }).text;
      for (const x of matchResponse(s, { status: s.response.status, headers, body: body.text })) problems.push(`${contract.file} "${tc.name}" response: ${formatMismatch(x)}`);
    }
  }
  return problems;
}

describe('generation agrees with matching', () => {
  it.each([0, 1, 2, 3])('for every example contract (seed %i)', (seed) => {
    for (const f of specFiles(path.join(ROOT, 'contracts'))) expect(roundTrip(loadContract(f), seed)).toEqual([]);
  });

  it.each([0, 7])('for every valid legacy contract of the repository (seed %i)', (seed) => {
    const problems = legacyContracts().flatMap((f) => roundTrip(loadContract(f), seed));
    expect(problems).toEqual([]);
  });

  withCorpus('spec-corpus', 'on the shared spec corpus', () => {
    it('for every valid contract of the shared corpus', () => {
      const problems = corpusContracts().flatMap((c) => roundTrip(c, 7));
      expect(problems).toEqual([]);
    });
  });
});

describe('request generation', () => {
  const contract = loadContract(path.join(ROOT, 'contracts', 'soap', 'api_petstore_v1.spec'));

  it('makes whole numbers from 1 to 100, which every XSD integer type accepts (xs:byte is -128..127)', () => {
    const c = parseContract('Feature: f\n  Scenario: s\n    When POST /x\n    And request-body <r><n>(number)</n></r>\n    Then status 200\n', 'n.spec');
    const seen = new Set<number>();
    for (let seed = 0; seed < 2000; seed++) {
      const n = Number(/<n>(\d+)<\/n>/.exec(generateBody(c.scenarios[0].request.body!, { scope: c.scenarios[0].scope, rng: createRandom(seed) }).text)![1]);
      expect(Number.isInteger(n) && n >= 1 && n <= 100).toBe(true);
      seen.add(n);
    }
    expect(seen.size).toBeGreaterThan(90);
  });

  it('is deterministic for a seed and varies with it', () => {
    const invoice = testCases(contract).find((t) => t.scenario.name === 'Invoice ids')!;
    expect(buildRequest(invoice, 5)).toEqual(buildRequest(invoice, 5));
    const bodies = new Set([0, 1, 2, 3, 4, 5].map((s) => buildRequest(invoice, s).body));
    expect(bodies.size).toBeGreaterThan(1);
  });

  it('takes values from Examples rows by node name', () => {
    const rows = testCases(contract).filter((t) => t.row);
    expect(rows.map((r) => buildRequest(r).body)).toEqual([expect.stringContaining('<pet:id>1</pet:id>'), expect.stringContaining('<pet:id>7</pet:id>')]);
    expect(buildRequest(rows[0]).headers['content-type']).toBe('text/xml; charset=utf-8');
  });

  it('keeps prefixes and namespace declarations as written', () => {
    const req = buildRequest(testCases(contract)[0]);
    expect(req.body).toBe(
      '<soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/"><soapenv:Header/><soapenv:Body><pet:getPetRequest xmlns:pet="http://example.com/petstore"><pet:id>1</pet:id></pet:getPetRequest></soapenv:Body></soapenv:Envelope>',
    );
  });

  it('fills path parameters, query parameters and JSON keys from Examples, leaving out empty cells', () => {
    const c = parseContract(`Feature: f
  Scenario Outline: search
    When POST /pets/(id:number)?name=(string)&type=(string)
    And request-body {"count": "(number)", "note?": "(string)"}
    Then status 200
    Examples:
      | id | name   | type | count | note |
      | 12 | Archie |      | 3     |      |`);
    const req = buildRequest(testCases(c)[0]);
    expect(req.path).toBe('/pets/12');
    expect(req.query).toEqual([['name', 'Archie']]);
    expect(JSON.parse(req.body)).toEqual({ count: 3 });
    expect(req.headers['content-type']).toBe('application/json');
  });

  it('uses an Examples value only where it fits the type of the node it names', () => {
    const c = parseContract(`Feature: f
  Scenario Outline: s
    When POST /pets
    And request-body {"id": "(number)", "owner": {"id": "(uuid)"}}
    Then status 200
    Examples:
      | id |
      | 12 |`);
    const body = JSON.parse(buildRequest(testCases(c)[0]).body);
    expect(body.id).toBe(12);
    expect(body.owner.id).toMatch(/^[0-9a-f]{8}-/);
  });

  it('sends a SOAP 1.2 envelope as application/soap+xml', () => {
    const c = parseContract(`Feature: f
  Scenario: s
    When POST /ws
    And request-body <env:Envelope xmlns:env="http://www.w3.org/2003/05/soap-envelope"><env:Body><ping/></env:Body></env:Envelope>
    Then status 200`);
    expect(buildRequest(testCases(c)[0]).headers['content-type']).toBe('application/soap+xml; charset=utf-8');
  });

  it('sends a bare (number) body as text', () => {
    const c = loadContract(path.join(ROOT, 'contracts', 'math', 'api_math_v1.spec'));
    const req = buildRequest(testCases(c)[0]);
    expect(req.body).toMatch(/^\d+$/);
    expect(bodyKind(c.scenarios[0].request.body!, c.scenarios[0].scope)).toBe('text');
    expect(req.headers['content-type']).toBe('text/plain; charset=utf-8');
  });
});

describe('request matching of SOAPAction', () => {
  it('accepts the action quoted or bare, whichever way the contract writes it', () => {
    const c = parseContract(`Feature: f
  Scenario: s
    When POST /ws
    And request-header SOAPAction "urn:getPet"
    Then status 200`);
    const s = c.scenarios[0];
    const m = (v: string) => matchRequest(s, { method: 'POST', path: '/ws', query: [], headers: { soapaction: v }, body: '' }, new ParsedBody(''), ['ws']).mismatches;
    expect(m('"urn:getPet"')).toEqual([]);
    expect(m('urn:getPet')).toEqual([]);
    expect(m('urn:other').map(formatMismatch)).toEqual(['REQUEST.HEADER SOAPAction: expected "\\"urn:getPet\\"", found "urn:other"']);
  });
});
