import { parseContract } from '../../src/contract/load';
import type { Contract } from '../../src/contract/model';
import { ParsedBody } from '../../src/http/body';
import type { HttpRequest } from '../../src/http/message';
import { loadContracts } from '../../src/stub/contracts';
import { dispatch } from '../../src/stub/decide/dispatch';
import { DispatchMemo } from '../../src/stub/decide/memo';
import { shapeOf } from '../../src/stub/decide/shape';
import { buildRoutes } from '../../src/stub/decide/build-routes';
import { startStub } from '../../src/stub/server';
import { chosen, CountingBody, sameChoices } from './shape-helpers';
import { importWsdl } from '../../src/wsdl';
import { wsdlFixtures } from '../wsdl/fixtures';
import { CONTRACTS, PET_SPEC, petRequest, post } from './helpers';

test('a request of a known shape gets the choice dispatch gives: the example contracts and repository WSDLs, every element text changed to twenty kinds of value', () => {
  const contracts = [...loadContracts([CONTRACTS]), ...wsdlFixtures().map((w) => parseContract(importWsdl(w.file).text, `${w.name}.spec`))];
  const { asked, byShape } = sameChoices(contracts);
  expect(asked).toBeGreaterThan(1000);
  // Most are answered from the notes, not parsed: the point of the shapes.
  expect(byShape / asked).toBeGreaterThan(0.3);
});

const spec = (scenarios: string) => parseContract(`Feature: Shapes\n${scenarios}`, 'shapes.spec');
const ENV = (inner: string) => `<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body>${inner}</s:Body></s:Envelope>`;
const scenario = (name: string, request: string, extra = '') =>
  `  Scenario: ${name}\n    When POST /ws\n    And request-body ${request}\n    Then status 200\n    And response-body ${name}\n${extra}`;

function asker(contract: Contract) {
  const table = buildRoutes([contract]);
  const memo = new DispatchMemo(table);
  return (body: string) => {
    const req: HttpRequest = { method: 'POST', path: '/ws', query: [], headers: {}, body };
    const parsed = new CountingBody(body);
    const o = memo.dispatch(req, parsed, memo.keyOf(req, '/ws', parsed));
    const plain = dispatch(table, req, ['ws'], new ParsedBody(body));
    expect(chosen(o)).toBe(chosen(plain));
    return `${o.kind === 'matched' ? `${o.route.scenario.name}${o.row ? ` row ${o.row.line}` : ''}` : o.kind}${parsed.parses === 0 ? '' : ' (parsed)'}`;
  };
}

test('a value an earlier scenario takes is not answered by the later one its shape was first seen with (first match wins)', () => {
  const ask = asker(spec(scenario('five', ENV('<id>5</id>')) + scenario('number', ENV('<id>(number)</id>')) + scenario('word', ENV('<id>(string)</id>'))));
  expect([ENV('<id>7</id>'), ENV('<id>8</id>'), ENV('<id>5</id>'), ENV('<id>9</id>'), ENV('<id>x</id>'), ENV('<id>y</id>'), ENV('<id>5</id>')].map(ask)).toEqual([
    'number (parsed)',
    'number',
    'five (parsed)',
    'number',
    'word (parsed)',
    'word',
    'five',
  ]);
});

test('an Examples row is chosen by its value, whatever row the shape was first seen with; a value no row and no scenario takes is refused', () => {
  const rows = `    Examples:\n      | id |\n      | 1  |\n      | 2  |\n`;
  const ask = asker(
    spec(`  Scenario Outline: pets\n    When POST /ws\n    And request-body ${ENV('<id>(number)</id>')}\n    Then status 200\n    And response-body pet <id>\n${rows}`),
  );
  const answers = [ENV('<id>1</id>'), ENV('<id>2</id>'), ENV('<id>1</id>'), ENV('<id>3</id>'), ENV('<id>abc</id>')].map(ask);
  expect(answers[0]).toMatch(/^pets row \d+ \(parsed\)$/);
  expect(answers[1]).toMatch(/^pets row \d+( \(parsed\))?$/);
  expect(answers[1]).not.toBe(answers[0].replace(' (parsed)', ''));
  expect(answers[2]).toBe(answers[0].replace(' (parsed)', ''));
  expect(answers[3]).toMatch(/^pets( \(parsed\))?$/);
  expect(answers[4]).toBe('no-match (parsed)');
});

test('enumerations, unions and optional values are told apart by value', () => {
  const ask = asker(
    spec(
      '  Scenario: colours\n    Given enum Colour (string) values red,green\n    When POST /ws\n    And request-body ' +
        ENV('<c>(Colour)</c><n>(number?)</n>') +
        '\n    Then status 200\n    And response-body colour\n' +
        scenario('other', ENV('<c>(string)</c><n>(string)</n>')),
    ),
  );
  const results = [ENV('<c>red</c><n>1</n>'), ENV('<c>green</c><n>2</n>'), ENV('<c>blue</c><n>3</n>'), ENV('<c>red</c><n>x</n>'), ENV('<c>green</c><n>4</n>')].map(ask);
  expect(results.map((r) => r.replace(' (parsed)', ''))).toEqual(['colours', 'colours', 'other', 'other', 'colours']);
  expect(results[1]).toBe('colours');
});

test('requests a shape cannot stand for are parsed every time: references, CDATA, comments, two runs of text in one element', () => {
  const ask = asker(spec(scenario('any', ENV('<id>(string)</id>'))));
  for (const body of [ENV('<id>a&amp;b</id>'), ENV('<id><![CDATA[x]]></id>'), ENV('<id>a<!-- c -->b</id>')]) {
    expect(ask(body)).toBe('any (parsed)');
    expect(ask(body)).toBe('any');
    // The same shape with another text: still parsed (it has no shape).
    expect(ask(body.replace('a', 'z'))).toBe('any (parsed)');
  }
  expect(shapeOf(ENV('<id>a<b/>c</id>'))).toBeUndefined();
  expect(shapeOf('text<a/>')).toBeUndefined();
  expect(shapeOf('<a x="1>2">t</a>')).toEqual({ key: '<a x="1>2">\0</a>', slots: ['t'] });
  expect(shapeOf('<?xml version="1.0"?>\n<a>\n  <b> t </b>\n</a>')).toEqual({ key: '<?xml version="1.0"?>\n<a>\n  <b>\0</b>\n</a>', slots: ['t'] });
  expect(shapeOf('<a><b/></a>')).toBeUndefined();
});

test('through the stub: new ids are answered each with values of their own, a repeated one as before, and the journal names the scenario', async () => {
  const stub = await startStub({ contracts: PET_SPEC });
  try {
    const answers: string[] = [];
    for (const id of ['10', '11', '12', '10', 'abc']) {
      const a = await post(`${stub.url}/ws`, petRequest(id));
      answers.push(`${a.status} ${a.body}`);
    }
    expect(answers.slice(0, 4).every((a) => a.startsWith('200 '))).toBe(true);
    expect(new Set(answers.slice(0, 3)).size).toBe(3);
    expect(answers[3]).toBe(answers[0]);
    expect(answers[4]).toMatch(/^400 /);
    expect(stub.calls().map((c) => c.scenario?.name ?? c.status)).toEqual(['Get a pet by id', 'Get a pet by id', 'Get a pet by id', 'Get a pet by id', 400]);
  } finally {
    await stub.close();
  }
});
