import { parseContract, testCases } from '../../src/contract/load';
import type { Contract } from '../../src/contract/model';
import { ParsedBody } from '../../src/http/body';
import { buildRequest } from '../../src/http/build-request';
import { splitPath } from '../../src/http/match-request';
import type { HttpRequest } from '../../src/http/message';
import { loadContracts } from '../../src/stub/contracts';
import { dispatch, type Outcome } from '../../src/stub/decide/dispatch';
import type { RouteTable } from '../../src/stub/decide/route';
import { buildRoutes } from '../../src/stub/decide/build-routes';
import { importWsdl } from '../../src/wsdl';
import { withCorpus, wsdlCorpus } from '../helpers/corpus';
import { mutant, seeded } from '../helpers/mutate';
import { wsdlFixtures } from '../wsdl/fixtures';
import { CONTRACTS } from './helpers';

/**
 * The body index (src/stub/decide/body-index.ts) only changes which routes are compared, never the answer:
 * every request generated from the example contracts, the repository's WSDLs and (when
 * ../shared is there) the WSDL corpus, plus damaged copies and bodies carrying two operations,
 * gets the same outcome (route, Examples row, example file, or the same 400 attempts) from
 * the indexed table as from a full scan of the same table.
 */
function imported(wsdls: { name: string; file: string }[]): Contract[] {
  return wsdls.map((w) => parseContract(importWsdl(w.file).text, `${w.name}.spec`));
}

function summary(o: Outcome): string {
  if (o.kind === 'matched') return `matched ${o.route.label} row ${o.row?.line ?? '-'} file ${o.fixed?.file ?? '-'}`;
  if (o.kind === 'no-match') return `no-match ${o.attempts.map((a) => `${a.route.label}: ${a.mismatches.map((m) => m.path).join(',')}`).join(' | ')}`;
  return `unknown-path ${o.allowed.join(',')}`;
}

const PALETTE = ['<', '>', '</', '/>', 'x', ' ', '"', 'Body', ':'];

function indexAgrees(contracts: Contract[], minRequests: number, damaged = true): { requests: number; narrowed: number } {
  let requests = 0;
  let narrowed = 0;
  const differ: string[] = [];
  for (const contract of contracts) {
    const table = buildRoutes([contract]);
    const scan: RouteTable = { ...table, bodyIndex: new Map() };
    const cases = testCases(contract);
    const r = seeded(contract.scenarios.length);
    cases.forEach((tc, i) => {
      for (let seed = 0; seed < 2; seed++) {
        const req = buildRequest(tc, seed);
        const other = buildRequest(cases[(i + 1) % cases.length], seed).body;
        const bodies = [req.body, twoOperations(req.body, other), ...(damaged ? [mutant(req.body, r, PALETTE)] : [])];
        for (const text of bodies) {
          const asked: HttpRequest = { ...req, body: text };
          const segments = splitPath(asked.path);
          const literal = table.literal.get(asked.method)?.get('/' + segments.join('/'));
          const index = literal && table.bodyIndex.get(literal);
          const candidates = index?.candidates(new ParsedBody(text));
          if (candidates && literal && candidates.length < literal.length) narrowed++;
          const indexed = summary(dispatch(table, asked, segments, new ParsedBody(text)));
          const full = summary(dispatch(scan, asked, segments, new ParsedBody(text)));
          requests++;
          if (indexed !== full) differ.push(`${contract.file} "${tc.name}" seed ${seed}:\n  indexed ${indexed}\n  full    ${full}`);
        }
      }
    });
  }
  expect(differ).toEqual([]);
  expect(requests).toBeGreaterThan(minRequests);
  return { requests, narrowed };
}

/** The inner content of `b`'s SOAP Body added to `a`'s, after a's own: a request that names two operations. */
function twoOperations(a: string, b: string): string {
  const inner = /<(?:\w+:)?Body[^>]*>([\s\S]*)<\/(?:\w+:)?Body>/.exec(b)?.[1];
  const close = /<\/(?:\w+:)?Body>/.exec(a);
  if (!inner || !close) return a;
  return a.slice(0, close.index) + inner + a.slice(close.index);
}

it('gives the answer a full scan gives, on the example contracts and the repository WSDLs', () => {
  const { requests, narrowed } = indexAgrees([...loadContracts([CONTRACTS]), ...imported(wsdlFixtures())], 200);
  // Most requests to a SOAP path of several operations are compared with their own operation only.
  expect(narrowed / requests).toBeGreaterThan(0.3);
});

withCorpus('wsdl-corpus', 'the same on contracts imported from the corpus WSDLs', () => {
  it('gives the answer a full scan gives', () => {
    const { requests, narrowed } = indexAgrees(imported(wsdlCorpus().map((e) => ({ name: e.folder, file: e.file }))), 1000, false);
    expect(narrowed / requests).toBeGreaterThan(0.3);
  });
});

describe('a SOAP service of 100 operations on one path', () => {
  const envelope = (inner: string) =>
    `<soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/"><soapenv:Header/><soapenv:Body>${inner}</soapenv:Body></soapenv:Envelope>`;
  let spec = 'Feature: Many operations\n';
  for (let i = 0; i < 100; i++) {
    const op = (suffix: string, field: string) => `<ns:op${i}${suffix} xmlns:ns="urn:svc"><ns:${field}>(number)</ns:${field}></ns:op${i}${suffix}>`;
    spec += `  Scenario: op${i}\n    Given type Req ${envelope(op('Request', 'id'))}\n    And type Res ${envelope(op('Response', 'value'))}\n    When POST /ws\n    And request-body (Req)\n    Then status 200\n    And response-body (Res)\n`;
  }
  const table = buildRoutes([parseContract(spec, 'many.spec')]);
  const index = table.bodyIndex.get(table.literal.get('POST')!.get('/ws')!)!;

  it('compares a request with its own operation only, whatever the prefixes', () => {
    const body = new ParsedBody(envelope('<x:op57Request xmlns:x="urn:svc"><x:id>7</x:id></x:op57Request>'));
    expect(index.candidates(body)!.map((r) => r.scenario.name)).toEqual(['op57']);
    expect(index.candidates(new ParsedBody(envelope('<ns:nothing xmlns:ns="urn:svc"/>')))).toEqual([]);
  });

  it('keeps contract order for a body naming two operations, and leaves a body that is not XML to the full scan', () => {
    const body = new ParsedBody(envelope('<ns:op9Request xmlns:ns="urn:svc"/><ns:op3Request xmlns:ns="urn:svc"/>'));
    expect(index.candidates(body)!.map((r) => r.scenario.name)).toEqual(['op3', 'op9']);
    expect(index.candidates(new ParsedBody('{"id": 7}'))).toBeUndefined();
  });

  it('still reports every operation when none matches', () => {
    const o = dispatch(
      table,
      { method: 'POST', path: '/ws', query: [], headers: {}, body: '' },
      ['ws'],
      new ParsedBody(envelope('<ns:op5Request xmlns:ns="urn:svc"><ns:id>x</ns:id></ns:op5Request>')),
    );
    expect(o.kind === 'no-match' && o.attempts.length).toBe(100);
  });
});
