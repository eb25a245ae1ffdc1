import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { importLogs } from '../../src/logs';
import { fixture, importAndParse, scratch, unmatched } from './helpers';

/** The same traffic in the other layouts real deployments write it in. */
const tmp = scratch();
afterAll(() => tmp.cleanup());

describe('layouts and encodings', () => {
  it('CXF blocks under java.util.logging (the heading on its own "INFO:" line)', async () => {
    const jul = readFileSync(fixture('cxf-interceptors.log'), 'utf8').replace(
      /^2024-05-14 (\d\d):(\d\d):(\d\d),\d+ (\w+)\s+\[[^\]]+\] (\S+) - (.*)$/gm,
      (_, h, m, s, level, logger, msg) => `May 14, 2024 ${Number(h)}:${m}:${s} AM ${logger} log\n${level === 'WARN' ? 'WARNING' : level}: ${msg}`,
    );
    expect(jul).toContain('\nINFO: Inbound Message\n----------------------------\nID: 1\n');
    const r = await importAndParse([tmp.write('jul.log', jul)]);
    expect(r.parsed.scenarios.map((s) => s.name)).toEqual(['getPetRequest', 'findPetsRequest', 'addPetRequest', 'getPetRequest (fault, status 500)']);
    expect(unmatched(r)).toEqual([]);
  });

  it('a gzip-compressed log', async () => {
    const r = await importAndParse([tmp.write('spring.log.gz', gzipSync(readFileSync(fixture('spring-ws.log'))))]);
    expect(r.report.exchanges).toBe(6);
    expect(unmatched(r)).toEqual([]);
  });

  it('a UTF-16LE log with its byte-order mark, and a refusal for UTF-16BE', async () => {
    const text = readFileSync(fixture('pretty-envelopes.log'), 'utf8');
    const le = await importAndParse([tmp.write('le.log', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]))]);
    expect(le.report.exchanges).toBe(5);
    const be = Buffer.from(text, 'utf16le').swap16();
    await expect(importLogs([tmp.write('be.log', Buffer.concat([Buffer.from([0xfe, 0xff]), be]))])).rejects.toThrow(/UTF-16 big-endian; convert it to UTF-8 first/);
  });

  it('Windows line endings', async () => {
    const r = await importAndParse([tmp.write('crlf.log', readFileSync(fixture('cxf-interceptors.log'), 'utf8').replace(/\n/g, '\r\n'))]);
    expect(r.report.exchanges).toBe(8);
    expect(unmatched(r)).toEqual([]);
  });

  it('CXF blocks of a JAX-RS service with JSON payloads', async () => {
    const block = (dir: 'Inbound' | 'Outbound', id: number, fields: string, payload: string) =>
      `2024-05-14 09:00:00,000 INFO  [exec-1] org.apache.cxf.services.PetResource - ${dir} Message\n${'-'.repeat(dir === 'Inbound' ? 28 : 27)}\nID: ${id}\n${fields}Headers: {}\nPayload: ${payload}\n${'-'.repeat(38)}\n`;
    const log = [1, 2]
      .map(
        (id) =>
          block(
            'Inbound',
            id,
            `Address: http://localhost:8080/api/pets/${id * 10}\nHttp-Method: PUT\nContent-Type: application/json\n`,
            JSON.stringify({ name: `p${id}`, age: id }),
          ) + block('Outbound', id, 'Response-Code: 200\nContent-Type: application/json\n', JSON.stringify({ id: id * 10, name: `p${id}`, updated: '2024-05-14T09:00:00Z' })),
      )
      .join('');
    const r = await importAndParse([tmp.write('jaxrs.log', log)]);
    expect(r.parsed.scenarios.map((s) => s.name)).toEqual(['PUT /api/pets/(petId:number)']);
    expect(r.contract).toContain('"updated": "(datetime)"');
    expect(unmatched(r)).toEqual([]);
  });
});

describe('odd addresses (found by fuzzing the sample logs)', () => {
  const block = (dir: 'Inbound' | 'Outbound', id: number, fields: string, payload: string) =>
    `2024-05-14 09:00:00,000 INFO  [exec-1] org.apache.cxf.services.PetResource - ${dir} Message\n${'-'.repeat(dir === 'Inbound' ? 28 : 27)}\nID: ${id}\n${fields}Headers: {}\nPayload: ${payload}\n${'-'.repeat(38)}\n`;
  const call = (id: number, address: string) =>
    block('Inbound', id, `Address: ${address}\nHttp-Method: GET\n`, '') + block('Outbound', id, 'Response-Code: 200\nContent-Type: application/json\n', JSON.stringify({ id }));

  it('a query parameter whose name needs escaping is written encoded and still matches', async () => {
    const r = await importAndParse([tmp.write('query.log', call(1, 'http://h/api/pets?a%20b=1&x%3Cy=2') + call(2, 'http://h/api/pets?a%20b=3&x%3Cy=4'))]);
    expect(r.contract).toContain('When GET /api/pets?a%20b=(number)&x%3Cy=(number)');
    expect(unmatched(r)).toEqual([]);
  });

  it('an address that is not an http(s) URL leaves the path unknown instead of writing it as a path', async () => {
    const r = await importAndParse([tmp.write('scheme.log', call(1, 'hs: https://h/api/pets'))]);
    expect(r.contract).toContain('When GET /\n');
    expect(unmatched(r)).toEqual([]);
  });
});

describe('HAR recordings from a browser', () => {
  it('--include keeps only the API the user names, and counts the rest by host', async () => {
    const r = await importAndParse([fixture('recording.har')], { include: ['https://shop.example.com/api/'] });
    expect(r.parsed.scenarios.map((s) => s.name)).toEqual(['GET /api/pets/(petId:number)', 'GET /api/pets', 'POST /api/orders (status 201)']);
    const outside = r.report.skipped.get('HAR entries outside --include');
    expect(outside?.count).toBe(7);
    expect(Object.fromEntries(outside!.details)).toEqual({ 'shop.example.com': 3, 'www.dneonline.com': 4 });
    expect(unmatched(r)).toEqual([]);
  });

  it('a proxy error page answering a SOAP call is skipped, not a broken envelope', async () => {
    const har = JSON.parse(readFileSync(fixture('recording.har'), 'utf8'));
    const soap = har.log.entries.find((e: { request: { url: string } }) => e.request.url.endsWith('calculator.asmx'));
    soap.response.status = 502;
    soap.response.content = { mimeType: 'text/html', text: '<html><body><h1>502 Bad Gateway<hr></body></html>', size: 50 };
    const r = await importAndParse([tmp.write('502.har', JSON.stringify(har))]);
    expect(r.report.problems).toEqual([]);
    expect(r.report.skipped.get('HAR entries with a body that is not a SOAP envelope')?.count).toBe(1);
    expect(unmatched(r)).toEqual([]);
  });

  it('a log with more operations than the limit keeps the first ones and counts the rest', async () => {
    const SOAP = 'xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"';
    const lines = Array.from({ length: 8 }, (_, i) => [
      `INFO Request: <soap:Envelope ${SOAP}><soap:Body><op${i}/></soap:Body></soap:Envelope>`,
      `INFO Response: <soap:Envelope ${SOAP}><soap:Body><op${i}Response/></soap:Body></soap:Envelope>`,
    ]).flat();
    const r = await importLogs([tmp.write('many.log', lines.join('\n'))], { limits: { maxOperations: 5 } });
    expect(r.report.scenarios).toBe(5);
    expect(r.report.skipped.get('calls of operations beyond the first 5')?.count).toBe(3);
  });
});

describe('--examples on JSON calls', () => {
  it('columns for path parameters, query parameters and body keys', async () => {
    const r = await importAndParse([fixture('recording.har')], { examples: true, redact: ['quantity'] });
    expect(unmatched(r)).toEqual([]);
    const rows = (name: string) => r.parsed.scenarios.find((s) => s.name === name)!.examples.map((e) => Object.fromEntries(e.values));
    expect(rows('GET /api/pets/(petId:number)')).toEqual([{ petId: '12' }, { petId: '13' }]);
    expect(rows('GET /api/pets')).toEqual([
      { status: 'available', limit: '2' },
      { status: 'sold', limit: '10' },
    ]);
    expect(rows('POST /api/orders (status 201)')).toEqual([
      { petId: '12', shipDate: '2024-07-02T09:00:00Z', complete: 'false' },
      { petId: '44', shipDate: '2024-07-03T09:00:00Z', complete: 'false' },
    ]);
  });
});

describe('JSON-lines logs (logstash, ECS)', () => {
  it('reads envelopes carried in a JSON string, escapes and all', async () => {
    const SOAP11 = 'xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"';
    const record = (t: string, message: string) => JSON.stringify({ '@timestamp': t, 'log.level': 'DEBUG', 'log.logger': 'c.e.SoapLogger', message });
    const lines = [0, 1, 2].flatMap((i) => [
      record(
        `2024-01-01T10:00:0${i}Z`,
        `Request: <soap:Envelope ${SOAP11}>\n  <soap:Body><m:getX xmlns:m="urn:m"><m:id>${i}</m:id><m:q>a &amp; "b"</m:q></m:getX></soap:Body></soap:Envelope>`,
      ),
      record(
        `2024-01-01T10:00:0${i}Z`,
        `Response: <soap:Envelope ${SOAP11}><soap:Body><m:getXResponse xmlns:m="urn:m"><m:at>2024-01-0${i + 1}</m:at></m:getXResponse></soap:Body></soap:Envelope>`,
      ),
    ]);
    const r = await importAndParse([tmp.write('ecs.log', lines.join('\n'))]);
    expect(r.report.exchanges).toBe(3);
    expect(r.contract).toContain('<m:id>(number)</m:id>');
    expect(r.contract).toContain('<m:at>(date)</m:at>');
    expect(unmatched(r)).toEqual([]);
  });
});

describe('JSON calls with and without a body', () => {
  it('become separate scenarios, so each keeps its body step', async () => {
    const har = JSON.parse(readFileSync(fixture('recording.har'), 'utf8'));
    const order = har.log.entries.find((e: { request: { method: string } }) => e.request.method === 'POST');
    const empty = JSON.parse(JSON.stringify(order));
    delete empty.request.postData;
    empty.request.headers = [{ name: 'Content-Type', value: 'application/json' }];
    har.log.entries.push(empty);
    const r = await importAndParse([tmp.write('bodies.har', JSON.stringify(har))]);
    expect(r.parsed.scenarios.map((s) => s.name)).toContain('POST /api/orders (status 201) without a request body');
    expect(unmatched(r)).toEqual([]);
  });
});

describe('text from the logs never breaks the contract it is written into', () => {
  it('a file name, a header and values with line breaks and Gherkin syntax in them', async () => {
    const har = JSON.parse(readFileSync(fixture('recording.har'), 'utf8'));
    for (const e of har.log.entries) {
      for (const h of e.request.headers) if (h.name === 'SOAPAction') h.value = '"urn:x"\n  Scenario: injected\n    When GET /evil';
      if (e.request.postData?.text?.includes('<t:intA>2</t:intA>'))
        e.request.postData.text = e.request.postData.text.replace('<t:intA>2</t:intA>', '<t:intA>2</t:intA><t:note>a | b\n"""\nScenario: x</t:note>');
    }
    const file = tmp.write('evil\nFeature: second.har', JSON.stringify(har));
    const r = await importAndParse([file], { examples: true });
    expect(r.parsed.scenarios.map((s) => s.name)).not.toContain('injected');
    expect(r.contract).toContain('And request-header SOAPAction (string)');
    expect(r.contract).toContain('Feature: Imported from evil?Feature: second.har');
    const add = r.parsed.scenarios.find((s) => s.name === 'Add')!;
    expect(add.examples[0].values.get('note')).toBe('a | b\n"""\nScenario: x');
    expect(unmatched(r)).toEqual([]);
  });
});
