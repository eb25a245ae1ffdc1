import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { compareVersions, formatGithub, formatHtml, formatJson, formatJunit, formatSarif, formatText, type FileReport } from '../../src/compat';
import { bodiesOverlap, requestsOverlap } from '../../src/http/compare-http';
import { parseContract } from '../../src/contract/load';
import { patternFromText } from '../../src/pattern/body';
import { intersects } from '../../src/pattern/compare/index';
import type { Pattern, Scope } from '../../src/pattern/types';
import { importWsdl } from '../../src/wsdl/import';
import { accord, TempRepo } from './git-repo';
import { baseWsdl } from './wsdl-pairs';

/*
 * The overlap rule (issue 35): every request the older contract takes is still taken, and every
 * answer the newer contract allows to such a request is one the older contract allowed, across all
 * scenarios whose requests overlap, not only the pair an older scenario is held to.
 */

const scope = (types: Record<string, string> = {}): Scope => ({ types: new Map(Object.entries(types).map(([k, v]) => [k, patternFromText(v)])) });
const p = (text: string): Pattern => patternFromText(text);

describe('intersects: can one value fit both patterns', () => {
  test('literals, typed values and enums', () => {
    expect(intersects(p('42'), scope(), p('(number)'), scope(), 'text')).toBe(true);
    expect(intersects(p('42'), scope(), p('43'), scope(), 'text')).toBe(false);
    expect(intersects(p('(number)'), scope(), p('(string)'), scope(), 'text')).toBe(true);
    expect(intersects(p('(number)'), scope(), p('(string)'), scope(), 'json')).toBe(false);
    expect(intersects(p('(number)'), scope(), p('(boolean)'), scope(), 'text')).toBe(false);
    // Neither type holds the other, yet "2020" is both.
    expect(intersects(p('(gYear)'), scope(), p('(integer)'), scope(), 'text')).toBe(true);
    const enums: Scope = {
      types: new Map<string, Pattern>([
        ['Ab', { kind: 'enum', name: 'Ab', base: 'string', values: ['a', 'b'] }],
        ['Cd', { kind: 'enum', name: 'Cd', base: 'string', values: ['c', 'd'] }],
        ['Bc', { kind: 'enum', name: 'Bc', base: 'string', values: ['b', 'c'] }],
      ]),
    };
    expect(intersects(p('(Ab)'), enums, p('(Cd)'), enums, 'text')).toBe(false);
    expect(intersects(p('(Ab)'), enums, p('(Bc)'), enums, 'text')).toBe(true);
    expect(intersects(p('(Ab)'), enums, p('"c"'), enums, 'text')).toBe(false);
  });

  test('XML: element names, optional nodes, nodes one side cannot have', () => {
    const b = (x: string, y: string) => bodiesOverlap(p(x), scope(), p(y), scope());
    expect(b('<getOrder><id>42</id></getOrder>', '<getOrder><id>(number)</id></getOrder>')).toBe(true);
    expect(b('<getOrder><id>42</id></getOrder>', '<getOrder><id>7</id></getOrder>')).toBe(false);
    expect(b('<getOrder><id>(number)</id></getOrder>', '<getCustomer><id>(number)</id></getCustomer>')).toBe(false);
    // Both may leave the node out: a request without it fits both.
    expect(b('<q><id specmatic_occurs="optional">1</id></q>', '<q><id specmatic_occurs="optional">2</id></q>')).toBe(true);
    // One requires it, the other does not know it: no request fits both.
    expect(b('<q><id>(number)</id></q>', '<q><name>(string)</name></q>')).toBe(false);
    expect(b('<q><id>(number)</id><coupon specmatic_occurs="optional">(string)</coupon></q>', '<q><id>5</id></q>')).toBe(true);
    expect(bodiesOverlap(p('{"id": "(number)"}'), scope(), p('{"id": "(string)"}'), scope())).toBe(false);
    expect(bodiesOverlap(p('{"id": "(number)"}'), scope(), p('<id>(number)</id>'), scope())).toBe(false);
  });

  test('requests: method, path, SOAPAction', () => {
    const req = (when: string, extra = '') => parseContract(`Feature: x\n  Scenario: s\n    When ${when}\n${extra}    Then status 200\n`).scenarios[0];
    const both = (a: ReturnType<typeof req>, b: ReturnType<typeof req>) => requestsOverlap(a.request, a.scope, b.request, b.scope);
    expect(both(req('GET /orders/(id:number)'), req('GET /orders/42'))).toBe(true);
    expect(both(req('GET /orders/43'), req('GET /orders/42'))).toBe(false);
    expect(both(req('GET /orders/(id:number)'), req('GET /orders/search'))).toBe(false);
    expect(both(req('GET /orders/(id:number)'), req('GET /orders/(code:string)'))).toBe(true);
    expect(both(req('GET /orders/(id:number)'), req('POST /orders/42'))).toBe(false);
    expect(both(req('POST /ws', '    And request-header SOAPAction "a"\n'), req('POST /ws', '    And request-header SOAPAction "b"\n'))).toBe(false);
    expect(both(req('POST /ws', '    And request-header SOAPAction "a"\n'), req('POST /ws'))).toBe(true);
  });
});

const NS = 'xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/"';
const env = (inner: string) => `<soapenv:Envelope ${NS}><soapenv:Body>${inner}</soapenv:Body></soapenv:Envelope>`;
const reqBody = (id = '(number)') => env(`<getOrder><orderId>${id}</orderId></getOrder>`);
const resBody = (total = '(decimal)') => env(`<getOrderResponse><total>${total}</total></getOrderResponse>`);

interface Sc {
  name: string;
  id?: string;
  total?: string;
  status?: number;
  action?: string;
  tags?: string;
  outline?: boolean;
}

function scenario(s: Sc): string {
  const head = `${s.tags ? `  ${s.tags}\n` : ''}  Scenario${s.outline ? ' Outline' : ''}: ${s.name}`;
  const lines = [
    head,
    '    When POST /ws',
    `    And request-header SOAPAction "${s.action ?? 'getOrder'}"`,
    `    And request-body ${reqBody(s.id)}`,
    `    Then status ${s.status ?? 200}`,
    `    And response-body ${resBody(s.total)}`,
  ];
  if (s.outline) lines.push('', '    Examples:', '      | orderId |', '      | 42      |', '      | 43      |');
  return lines.join('\n');
}

const contract = (...ss: Sc[]) => `Feature: Orders\n\n${ss.map(scenario).join('\n\n')}\n`;

function compare(older: string, newer: string): FileReport {
  return compareVersions({
    file: 'orders_v1.spec',
    older: { label: 'old/orders_v1.spec', text: older },
    newer: { label: 'new/orders_v1.spec', text: newer },
    olderWhere: 'old',
    newerWhere: 'new',
  });
}

const rules = (r: FileReport) => r.verdict.results.flatMap((x) => x.findings.map((f) => f.rule));
const pairs = (r: FileReport) => r.verdict.results.flatMap((x) => x.findings.filter((f) => f.pair).map((f) => `${f.pair!.older.scenario} / ${f.pair!.newer.scenario}`));

const IMPORTED: Sc = { name: 'getOrder' };
const OUTLINE: Sc = { name: 'getOrder for our tests', id: '(orderId:number)', outline: true };
const OUTLINE_LITERAL: Sc = { name: 'getOrder 42', id: '42' };

describe('.spec pairs: scenarios whose requests overlap', () => {
  test('the issue: an imported scenario beside an Outline of the same requests changes total to (string): NOT compatible, the pair named', () => {
    const r = compare(contract(IMPORTED, OUTLINE), contract({ ...IMPORTED, total: '(string)' }, OUTLINE));
    expect(r.verdict.compatible).toBe(false);
    expect(rules(r)).toEqual(['response-type-widened']);
    expect(pairs(r)).toEqual(['getOrder / getOrder']);
    expect(formatText([r])).toContain(
      'newer scenario "getOrder" takes requests older scenario "getOrder" takes, and answers them otherwise: RESPONSE.BODY Envelope/Body/getOrderResponse/total was (decimal), now (string)',
    );
    // Beside an Outline of order 42 only, the imported scenario is held to itself: the break is its own.
    const literal = compare(contract(IMPORTED, OUTLINE_LITERAL), contract({ ...IMPORTED, total: '(string)' }, OUTLINE_LITERAL));
    expect(rules(literal)).toEqual(['response-type-widened']);
  });

  test('the Outline changed instead, the imported scenario kept: NOT compatible', () => {
    const r = compare(contract(IMPORTED, OUTLINE), contract(IMPORTED, { ...OUTLINE, total: '(string)' }));
    expect(r.verdict.compatible).toBe(false);
    expect(pairs(r)).toContain('getOrder for our tests / getOrder for our tests');
  });

  test('an added scenario taking the same requests and answering otherwise: NOT compatible', () => {
    const r = compare(contract(IMPORTED), contract(IMPORTED, { ...OUTLINE, total: '(string)' }));
    expect(r.verdict.compatible).toBe(false);
    expect(rules(r)).toEqual(['response-type-widened']);
    expect(pairs(r)).toEqual(['getOrder / getOrder for our tests']);
  });

  test('an added narrower scenario (order 42 only) answering otherwise: NOT compatible; answering within: compatible', () => {
    const bad = compare(contract(IMPORTED), contract(IMPORTED, { ...OUTLINE_LITERAL, total: '(string)' }));
    expect(bad.verdict.compatible).toBe(false);
    expect(pairs(bad)).toEqual(['getOrder / getOrder 42']);
    const fine = compare(contract(IMPORTED), contract(IMPORTED, { ...OUTLINE_LITERAL, total: '12.50' }));
    expect(fine.verdict.compatible).toBe(true);
  });

  test('an added scenario with a status the older never gave those requests: status-added', () => {
    const r = compare(contract(IMPORTED), contract(IMPORTED, { ...OUTLINE_LITERAL, status: 404 }));
    expect(rules(r)).toEqual(['status-added']);
    expect(r.verdict.compatible).toBe(false);
  });

  test('older scenarios that both take a request: an answer either allowed is fine (the union of older answers)', () => {
    // Order 42 answers a string total, every other order a decimal: a newer 42-only scenario answering a decimal is still allowed.
    const older = contract(IMPORTED, { ...OUTLINE_LITERAL, total: '(string)' });
    expect(compare(older, contract(IMPORTED, { ...OUTLINE_LITERAL, name: 'renamed 42', total: '(decimal)' })).verdict.compatible).toBe(true);
    // ...and the same pair unchanged, reordered, renamed: compatible.
    expect(compare(older, older).verdict.compatible).toBe(true);
    expect(compare(older, contract({ ...OUTLINE_LITERAL, total: '(string)', name: 'forty-two' }, { ...IMPORTED, name: 'get' })).verdict.compatible).toBe(true);
  });

  test('added scenarios whose requests no older scenario takes stay compatible (seed 9.1)', () => {
    // Another SOAPAction, another order literal than the older one's, another path.
    expect(compare(contract(OUTLINE_LITERAL), contract(OUTLINE_LITERAL, { name: 'cancel', action: 'cancelOrder', total: '(string)' })).verdict.compatible).toBe(true);
    expect(compare(contract(OUTLINE_LITERAL), contract(OUTLINE_LITERAL, { name: 'order 7', id: '7', total: '(string)' })).verdict.compatible).toBe(true);
    const cube = 'Feature: Math\n\n  Scenario: Cube\n    When POST /cube\n    And request-body (number)\n    Then status 200\n    And response-body (string)\n';
    const square = 'Feature: Math\n\n  Scenario: Square\n    When POST /square\n    And request-body (number)\n    Then status 200\n    And response-body (number)\n';
    expect(compare(square, `${square}\n${cube.split('\n').slice(2).join('\n')}`).verdict.compatible).toBe(true);
    // JSON over HTTP: a literal segment a typed one never takes is another endpoint; one it takes is not.
    const pets = (extra: string) =>
      `Feature: Pets\n\n  Scenario: Get a pet\n    When GET /pets/(id:number)\n    Then status 200\n    And response-body {"id": "(number)"}\n${extra}`;
    const added = (segment: string) => `\n  Scenario: Added\n    When GET /pets/${segment}\n    Then status 200\n    And response-body ["(string*)"]\n`;
    expect(compare(pets(''), pets(added('search'))).verdict.compatible).toBe(true);
    const r = compare(pets(''), pets(added('7')));
    expect(r.verdict.compatible).toBe(false);
    expect(pairs(r)).toEqual(['Get a pet / Added']);
  });

  test('@WIP stays out: an added @WIP scenario is not checked; an older @WIP one promised nothing', () => {
    expect(compare(contract(IMPORTED), contract(IMPORTED, { ...OUTLINE, total: '(string)', tags: '@WIP' })).verdict.compatible).toBe(true);
    expect(compare(contract(IMPORTED, { ...OUTLINE, total: '(string)', tags: '@WIP' }), contract(IMPORTED, { ...OUTLINE, total: '(string)' })).verdict.compatible).toBe(false);
    // A scenario the older contract promised, marked @WIP in the newer with a changed answer, still counts.
    expect(compare(contract(IMPORTED, OUTLINE), contract({ ...IMPORTED, total: '(string)', tags: '@WIP' }, OUTLINE)).verdict.compatible).toBe(false);
  });

  test('an added scenario answering a SOAP Fault, untagged, is no break either (a SOAP client takes any Fault)', () => {
    const fault = `  Scenario: order zero faults
    When POST /ws
    And request-header SOAPAction "getOrder"
    And request-body ${reqBody('0')}
    Then status 500
    And response-body ${env('<soapenv:Fault><faultcode>soapenv:Server</faultcode><faultstring>(string)</faultstring></soapenv:Fault>')}`;
    expect(compare(contract(IMPORTED), `${contract(IMPORTED)}\n${fault}\n`).verdict.compatible).toBe(true);
  });

  test('an added @fault scenario is a note, not a break', () => {
    const fault: Sc = { name: 'order not found', id: '0', status: 500, tags: '@fault' };
    const r = compare(contract(IMPORTED), contract(IMPORTED, fault));
    expect(r.verdict.compatible).toBe(true);
    expect(r.verdict.notes.map((n) => n.kind)).toEqual(['fault-added']);
  });
});

describe('a WSDL-imported contract beside a hand-written Outline', () => {
  const PET_ID = '<xsd:element name="id" type="xsd:int"/>\n          <xsd:element name="name"';
  // Written by hand beside the imported scenarios (the Background gives it the request line and envelopes); its own Pet, kept as it was.
  const outline = `
  Scenario Outline: getPet for our tests
    Given type Request
    """
    <tns:getPet><tns:id>(id:int)</tns:id><tns:code>(string)</tns:code></tns:getPet>
    """
    And type Response
    """
    <tns:getPetResponse><tns:pet><tns:id>(int)</tns:id><tns:name>(string)</tns:name><tns:status>(Status)</tns:status><tns:tag specmatic_occurs="optional">(string)</tns:tag></tns:pet></tns:getPetResponse>
    """
    And enum SoapAction (string) values "urn:getPet"

    Examples:
      | id |
      | 42 |
`;
  const imported = (wsdl: string): string => {
    const dir = mkdtempSync(path.join(tmpdir(), 'accord-overlap-'));
    try {
      writeFileSync(path.join(dir, 'pets.wsdl'), wsdl);
      return importWsdl(path.join(dir, 'pets.wsdl')).text.trimEnd();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
  const v1 = `${imported(baseWsdl())}\n${outline}`;
  // The imported getPet's pet id becomes a string: the Outline still answers a number, the imported one now any string.
  const v2 = `${imported(baseWsdl().replace(PET_ID, '<xsd:element name="id" type="xsd:string"/>\n          <xsd:element name="name"'))}\n${outline}`;

  test('the imported scenario changes a response type: NOT compatible (the Outline no longer hides it)', () => {
    const r = compare(v1, v2);
    expect(r.verdict.compatible).toBe(false);
    expect(pairs(r).length).toBeGreaterThan(0);
  });

  let repo: TempRepo;
  beforeEach(() => {
    repo = new TempRepo();
  });
  afterEach(() => repo.remove());

  // The built CLI as a child process, as the other git tests run it.
  async function cli(...args: string[]): Promise<{ code: number; out: string }> {
    const r = accord(repo.dir, 'compatible', ...args);
    return { code: r.code, out: r.stdout + r.stderr };
  }

  test('git file and git commits, every output format, name the pair', async () => {
    repo.write('contracts/pets_v1.spec', v1).commit('v1');
    repo.write('contracts/pets_v1.spec', v2);
    const text = await cli('git', 'file', 'contracts/pets_v1.spec');
    expect(text.code).toBe(1);
    expect(text.out).toContain('newer scenario "getPet" takes requests older scenario "getPet" takes, and answers them otherwise');
    repo.commit('v2');
    for (const format of ['json', 'junit', 'github', 'sarif', 'html']) {
      const r = await cli('git', 'commits', 'contracts/pets_v1.spec', 'HEAD', 'HEAD^1', '--format', format);
      expect(r.code).toBe(1);
      expect(r.out).toContain(
        format === 'html' ? 'newer scenario \\"getPet\\" takes requests' : format === 'json' ? 'newer scenario \\"getPet\\" takes requests' : 'newer scenario',
      );
      if (format === 'json') {
        const doc = JSON.parse(r.out) as { files: { results: { findings: { pair?: { older: { scenario: string }; newer: { scenario: string } } }[] }[] }[] };
        const found = doc.files[0].results.flatMap((x) => x.findings).filter((f) => f.pair);
        expect(found.map((f) => `${f.pair!.older.scenario} / ${f.pair!.newer.scenario}`)).toContain('getPet / getPet');
      }
    }
    // Back to the first version: compatible both ways round of the Outline.
    expect((await cli('git', 'commits', 'contracts/pets_v1.spec', 'HEAD^1', 'HEAD^1')).code).toBe(0);
  });

  test("old.wsdl vs new.wsdl through git: an added operation that takes getPet's requests and answers otherwise", async () => {
    const base = baseWsdl();
    repo.write('wsdl/pets.wsdl', base).commit('v1');
    const added = base
      .replace('  </portType>', '    <operation name="adoptPet"><input message="tns:GetPetIn"/><output message="tns:ListPetsOut"/></operation>\n  </portType>')
      .replace(
        '  </binding>',
        '    <operation name="adoptPet"><soap:operation soapAction="urn:getPet"/><input><soap:body use="literal"/></input><output><soap:body use="literal"/></output></operation>\n  </binding>',
      );
    repo.write('wsdl/pets.wsdl', added);
    const text = await cli('git', 'file', 'wsdl/pets.wsdl');
    expect(text.code).toBe(1);
    expect(text.out).toContain('newer scenario "adoptPet" takes requests older scenario "getPet" takes, and answers them otherwise');
    // The finding points at the WSDL, never at the in-memory contract.
    expect(text.out).toMatch(/At: wsdl\/pets\.wsdl:\d+/);
    repo.commit('v2');
    const gh = await cli('git', 'commits', 'wsdl/pets.wsdl', 'HEAD', 'HEAD^1', '--format', 'github');
    expect(gh.code).toBe(1);
    expect(gh.out).toMatch(
      /::error file=wsdl\/pets\.wsdl,line=\d+,title=accord compatible%3A response-node-(added|removed)::.*newer scenario "adoptPet" takes requests older scenario "getPet" takes/,
    );
  });
});

describe('every output format names the pair', () => {
  const r = compare(contract(IMPORTED, OUTLINE), contract({ ...IMPORTED, total: '(string)' }, OUTLINE));
  const words = 'newer scenario "getOrder" takes requests older scenario "getOrder" takes, and answers them otherwise';
  test.each([
    ['text', () => formatText([r])],
    ['junit', () => formatJunit([r])],
    ['github', () => formatGithub([r])],
    ['sarif', () => formatSarif([r], '0.0.0')],
  ])('%s', (_name, f) => {
    expect(f().replaceAll('&quot;', '"').replaceAll('\\"', '"')).toContain(words);
  });
  test('json and html', () => {
    const doc = JSON.parse(formatJson([r])) as { compatible: boolean; files: { results: { findings: { pair?: unknown; rule: string }[] }[] }[] };
    expect(doc.compatible).toBe(false);
    const f = doc.files[0].results.flatMap((x) => x.findings).find((x) => x.pair);
    expect(f).toMatchObject({ rule: 'response-type-widened', pair: { older: { scenario: 'getOrder' }, newer: { scenario: 'getOrder' } } });
    expect(formatHtml([r]).replaceAll('\\"', '"')).toContain(words);
  });
});

describe('consumer attribution follows the overlap', () => {
  let repo: TempRepo;
  beforeEach(() => {
    repo = new TempRepo();
  });
  afterEach(() => repo.remove());

  test('an example whose request both scenarios take is charged; one only the older scenario takes is not', async () => {
    const older = contract(IMPORTED);
    const newer = contract(IMPORTED, { ...OUTLINE_LITERAL, total: '(string)' });
    repo.write('orders_v1.spec', older).commit('v1');
    repo.write('orders_v1.spec', newer);
    const example = (consumer: string, id: string) => {
      const dir = path.join(repo.dir, 'consumers', consumer, 'orders_v1_examples');
      mkdirSync(dir, { recursive: true });
      writeFileSync(
        path.join(dir, 'e.json'),
        JSON.stringify({
          'http-request': { method: 'POST', path: '/ws', headers: { SOAPAction: '"getOrder"' }, body: reqBody(id) },
          'http-response': { status: 200, body: resBody('1.50') },
        }),
      );
    };
    example('billing', '42');
    example('mobile', '7');
    const r = accord(repo.dir, 'compatible', 'git', 'file', 'orders_v1.spec', '--consumers', 'consumers');
    const out = r.stdout + r.stderr;
    expect(r.code).toBe(1);
    expect(out).toContain('Consumers: breaks `total` for billing (1 of 2 consumers)');
    expect(out).not.toContain('for billing and mobile');
  });
});
