import { importAndParse, scratch, unmatched } from './helpers';

/**
 * The rewriting and merging rules, each on a small log written for it. Every
 * test also checks that the logged calls match what was written.
 */
const tmp = scratch();
afterAll(() => tmp.cleanup());

const SOAP = 'xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/"';
const NS = 'xmlns:m="urn:example:m"';

let n = 0;
/** A log of request/response pairs, one envelope per line, as Spring-WS-style lines. */
function log(pairs: [string, string][], header = '<soapenv:Header/>'): string {
  const lines: string[] = [];
  for (const [req, res] of pairs) {
    lines.push(`2024-01-01 10:00:00.000 DEBUG [main] x.SoapLogger - Request: <soapenv:Envelope ${SOAP}>${header}<soapenv:Body>${req}</soapenv:Body></soapenv:Envelope>`);
    lines.push(`2024-01-01 10:00:00.100 DEBUG [main] x.SoapLogger - Response: <soapenv:Envelope ${SOAP}><soapenv:Body>${res}</soapenv:Body></soapenv:Envelope>`);
  }
  return tmp.write(`rules-${++n}.log`, `${lines.join('\n')}\n`);
}

const op = (body: string) => `<m:op ${NS}>${body}</m:op>`;
const res = (body: string) => `<m:opResponse ${NS}>${body}</m:opResponse>`;

async function contractOf(pairs: [string, string][], options: { path?: string; examples?: boolean; limits?: { maxExamples: number } } = {}, header?: string) {
  const r = await importAndParse([log(pairs, header)], options);
  expect(unmatched(r, options.path)).toEqual([]);
  return r;
}

describe('literal values become typed placeholders', () => {
  it.each([
    ['42', 'number'],
    ['-3.75', 'number'],
    ['0', 'number'],
    ['007', 'string'],
    ['true', 'boolean'],
    ['false', 'boolean'],
    ['2024-02-29', 'date'],
    ['2023-02-29', 'string'],
    ['2024-05-14T09:01:12Z', 'datetime'],
    ['2024-05-14T09:01:12.125+02:00', 'datetime'],
    ['5f0c6a3e-8a41-4c2e-9a57-0e2b3c4d5e6f', 'uuid'],
    ['Hello, world', 'string'],
    ['1e5x', 'string'],
  ])('%s → (%s)', async (value, type) => {
    const { contract } = await contractOf([[op(`<m:v>${value}</m:v>`), res('<m:ok>true</m:ok>')]]);
    expect(contract).toContain(`<m:v>(${type})</m:v>`);
  });

  it('text beside child nodes (mixed content) keeps a text placeholder, so the calls still match', async () => {
    const { contract } = await contractOf([
      [op('<m:note>see <m:ref>12</m:ref> below</m:note>'), res('<m:ok/>')],
      [op('<m:note><m:ref>13</m:ref></m:note>'), res('<m:ok/>')],
    ]);
    expect(contract).toMatch(/<m:note>\n\s+\(string\)\n\s+<m:ref>\(number\)<\/m:ref>/);
  });

  it('attributes are typed too, and missing ones made optional', async () => {
    const { contract } = await contractOf([
      [op('<m:v unit="kg" n="3">1</m:v>'), res('<m:ok/>')],
      [op('<m:v unit="g">2</m:v>'), res('<m:ok/>')],
    ]);
    // Optional attributes are written as the WSDL importer writes them (one printer, one form): n.opt="(number)".
    expect(contract).toContain('<m:v unit="(string)" n.opt="(number)">(number)</m:v>');
  });
});

describe('many calls of one operation merge into one scenario', () => {
  it('values that disagree in type take the wider type', async () => {
    const { contract, parsed } = await contractOf([
      [op('<m:code>12</m:code><m:when>2024-01-01</m:when>'), res('<m:ok>true</m:ok>')],
      [op('<m:code>A-12</m:code><m:when>2024-01-01T10:00:00Z</m:when>'), res('<m:ok>true</m:ok>')],
    ]);
    expect(parsed.scenarios).toHaveLength(1);
    expect(contract).toContain('<m:code>(string)</m:code>');
    expect(contract).toContain('<m:when>(string)</m:when>');
  });

  it('a node present in some calls becomes optional, in its place', async () => {
    const { contract } = await contractOf([
      [op('<m:a>1</m:a><m:b>x</m:b><m:c>2</m:c>'), res('<m:ok/>')],
      [op('<m:a>1</m:a><m:c>2</m:c>'), res('<m:ok/>')],
      [op('<m:a>1</m:a><m:c>2</m:c><m:d>true</m:d>'), res('<m:ok/>')],
    ]);
    expect(contract).toMatch(
      /<m:a>\(number\)<\/m:a>\s+<m:b specmatic_occurs="optional">\(string\)<\/m:b>\s+<m:c>\(number\)<\/m:c>\s+<m:d specmatic_occurs="optional">\(boolean\)<\/m:d>/,
    );
  });

  it('a number that is sometimes empty becomes (number?)', async () => {
    const { contract } = await contractOf([
      [op('<m:n>4</m:n>'), res('<m:ok/>')],
      [op('<m:n></m:n>'), res('<m:ok/>')],
    ]);
    expect(contract).toContain('<m:n>(number?)</m:n>');
  });

  it('xsi:nil="true" makes the node nillable', async () => {
    const xsi = 'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"';
    const { contract } = await contractOf([
      [op(`<m:n ${xsi}>4</m:n>`), res('<m:ok/>')],
      [op(`<m:n ${xsi} xsi:nil="true"/>`), res('<m:ok/>')],
    ]);
    expect(contract).toContain('<m:n xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" specmatic_nillable="true">(number)</m:n>');
  });

  it('same-named siblings become one repeated node declared as a type', async () => {
    const { contract } = await contractOf([
      [op('<m:id>1</m:id>'), res('<m:item><m:id>1</m:id></m:item><m:item><m:id>2</m:id><m:note>n</m:note></m:item><m:count>2</m:count>')],
      [op('<m:id>2</m:id>'), res('<m:count>0</m:count>')],
    ]);
    expect(contract).toMatch(/<m:opResponse xmlns:m="urn:example:m">\s+\(Item\*\)\s+<m:count>\(number\)<\/m:count>/);
    expect(contract).toMatch(/And type Item\s+"""\s+<m:item>\s+<m:id>\(number\)<\/m:id>\s+<m:note specmatic_occurs="optional">\(string\)<\/m:note>\s+<\/m:item>/);
  });

  it('repeated nodes with the same name in two places get two types', async () => {
    const { contract } = await contractOf([[op('<m:a><m:x>1</m:x><m:x>2</m:x></m:a><m:b><m:x>q</m:x><m:x>r</m:x></m:b>'), res('<m:ok/>')]]);
    expect(contract).toContain('And type X <m:x>(number)</m:x>');
    expect(contract).toContain('And type X2 <m:x>(string)</m:x>');
  });

  it('the envelope header is kept, names, prefixes and namespace declarations as logged', async () => {
    const { contract } = await contractOf([[op('<m:id>1</m:id>'), res('<m:ok/>')]], {}, '<soapenv:Header><h:trace xmlns:h="urn:h">abc</h:trace></soapenv:Header>');
    expect(contract).toContain(`<soapenv:Envelope ${SOAP}>`);
    expect(contract).toMatch(/<soapenv:Header>\s+<h:trace xmlns:h="urn:h">\(string\)<\/h:trace>\s+<\/soapenv:Header>/);
    expect(contract).toContain(`<m:op ${NS}>`);
  });
});

describe('--examples and redaction', () => {
  const secured = (user: string, pw: string) =>
    `<soapenv:Header><wsse:Security xmlns:wsse="urn:wsse"><wsse:UsernameToken><wsse:Username>${user}</wsse:Username><wsse:Password>${pw}</wsse:Password></wsse:UsernameToken></wsse:Security></soapenv:Header>`;

  it('keeps request values as an Examples table, without secrets', async () => {
    const file = tmp.write(
      'secrets.log',
      [
        `INFO Request: <soapenv:Envelope ${SOAP}>${secured('ann', 'pa55')}<soapenv:Body>${op('<m:account>DE44500105175407324931</m:account><m:pin>1234</m:pin><m:userPassword>x1</m:userPassword><m:amount>10</m:amount>')}</soapenv:Body></soapenv:Envelope>`,
        `INFO Response: <soapenv:Envelope ${SOAP}><soapenv:Body>${res('<m:ok>true</m:ok>')}</soapenv:Body></soapenv:Envelope>`,
        `INFO Request: <soapenv:Envelope ${SOAP}>${secured('bob', 'hunter2')}<soapenv:Body>${op('<m:account>FR7630006000011234567890189</m:account><m:pin>9999</m:pin><m:userPassword>x2</m:userPassword><m:amount>25.5</m:amount>')}</soapenv:Body></soapenv:Envelope>`,
        `INFO Response: <soapenv:Envelope ${SOAP}><soapenv:Body>${res('<m:ok>false</m:ok>')}</soapenv:Body></soapenv:Envelope>`,
      ].join('\n'),
    );
    const r = await importAndParse([file], { examples: true, redact: ['account'] });
    expect(unmatched(r)).toEqual([]);
    const s = r.parsed.scenarios[0];
    expect(s.examples.map((e) => Object.fromEntries(e.values))).toEqual([{ amount: '10' }, { amount: '25.5' }]);
    for (const secret of ['ann', 'pa55', 'hunter2', 'DE44500105175407324931', '1234', '9999', 'x1']) expect(r.contract).not.toContain(secret);
    // 2 calls × (username, password in the Security header + pin + userPassword + account)
    expect(r.report.redactedValues).toBe(10);
    expect(r.contract).toContain('Scenario Outline: op');
  });

  it('leaves out a column whose node appears twice in one request', async () => {
    const r = await contractOf([[op('<m:from><m:id>1</m:id></m:from><m:to><m:id>2</m:id></m:to><m:note>hi | there</m:note>'), res('<m:ok/>')]], { examples: true });
    expect(r.parsed.scenarios[0].examples.map((e) => Object.fromEntries(e.values))).toEqual([{ note: 'hi | there' }]);
    expect(r.contract).toContain('| hi \\| there |');
  });

  it('keeps at most --max-examples distinct rows', async () => {
    const pairs: [string, string][] = Array.from({ length: 12 }, (_, i) => [op(`<m:n>${i % 6}</m:n>`), res('<m:ok/>')]);
    const r = await contractOf(pairs, { examples: true, limits: { maxExamples: 4 } });
    expect(r.parsed.scenarios[0].examples.map((e) => e.values.get('n'))).toEqual(['0', '1', '2', '3']);
  });
});

describe('pairing without IDs', () => {
  it('pairs by order per operation, a fault with the oldest waiting request, and reports the unpaired', async () => {
    const line = (dir: string, body: string) => `INFO ${dir}: <soapenv:Envelope ${SOAP}><soapenv:Body>${body}</soapenv:Body></soapenv:Envelope>`;
    const file = tmp.write(
      'order.log',
      [
        line('Response', '<m:strayResponse xmlns:m="urn:m"><m:x>1</m:x></m:strayResponse>'),
        line('Request', '<m:getA xmlns:m="urn:m"><m:id>1</m:id></m:getA>'),
        line('Request', '<m:getB xmlns:m="urn:m"><m:id>2</m:id></m:getB>'),
        line('Response', '<m:getBResponse xmlns:m="urn:m"><m:b>x</m:b></m:getBResponse>'),
        line('Response', '<soapenv:Fault><faultcode>soapenv:Server</faultcode><faultstring>boom</faultstring></soapenv:Fault>'),
        line('Request', '<m:getC xmlns:m="urn:m"><m:id>3</m:id></m:getC>'),
      ].join('\n'),
    );
    const r = await importAndParse([file]);
    expect(unmatched(r)).toEqual([]);
    expect(r.parsed.scenarios.map((s) => s.name)).toEqual(['getB', 'getA (fault, status 500)']);
    expect(r.report.unpaired.map((u) => [u.at.line, u.direction, u.why])).toEqual([
      [1, 'response', 'no strayResponse request waiting before it'],
      [6, 'request', 'no response in the logs'],
    ]);
  });

  it('with no words saying which way, a *Response element or a Fault is a response', async () => {
    const file = tmp.write(
      'unhinted.log',
      [
        `<soapenv:Envelope ${SOAP}><soapenv:Body><m:ping xmlns:m="urn:m"><m:n>1</m:n></m:ping></soapenv:Body></soapenv:Envelope>`,
        `<soapenv:Envelope ${SOAP}><soapenv:Body><m:pingResponse xmlns:m="urn:m"><m:n>1</m:n></m:pingResponse></soapenv:Body></soapenv:Envelope>`,
      ].join('\n'),
    );
    const r = await importAndParse([file]);
    expect(r.report.exchanges).toBe(1);
    expect(unmatched(r)).toEqual([]);
  });
});

describe('--path', () => {
  it('puts every SOAP scenario on the given path', async () => {
    const r = await contractOf([[op('<m:id>1</m:id>'), res('<m:ok/>')]], { path: '/services/m' });
    expect(r.parsed.scenarios[0].request.path).toBe('/services/m');
    expect(unmatched(r, '/services/m')).toEqual([]);
  });
});
