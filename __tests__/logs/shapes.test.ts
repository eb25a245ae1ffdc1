import { acceptedBy, fixture, importAndParse, unmatched } from './helpers';

/**
 * One sample log per shape, each with several operations and several calls:
 * the contract written parses, has one scenario per operation and outcome,
 * and takes every logged request and response.
 */
describe('Apache CXF LoggingInInterceptor/LoggingOutInterceptor blocks', () => {
  const file = fixture('cxf-interceptors.log');

  it('pairs by ID, one scenario per operation and outcome', async () => {
    const r = await importAndParse([file]);
    expect(r.parsed.scenarios.map((s) => s.name)).toEqual(['getPetRequest', 'findPetsRequest', 'addPetRequest', 'getPetRequest (fault, status 500)']);
    expect(r.report.messages.cxf).toBe(16);
    expect(r.report.exchanges).toBe(8);
    expect(r.report.unpaired).toEqual([]);
    expect(r.report.skipped.get('CXF blocks without a payload')?.count).toBe(1);
  });

  it('pairs interleaved calls by ID, not by order', async () => {
    const r = await importAndParse([file]);
    // findPets B's response comes before A's: each still pairs with its own request.
    const find = r.exchanges.filter((x) => x.request.operation === 'findPetsRequest');
    expect(find.map((x) => [x.request.id, x.response.id])).toEqual([
      ['5', '5'],
      ['4', '4'],
    ]);
  });

  it('takes the path and SOAPAction from the log and the status from Response-Code', async () => {
    const r = await importAndParse([file]);
    const get = r.parsed.scenarios[0];
    expect(get.request.path).toBe('/ws/pets');
    expect(get.request.headers.map((h) => [h.name, h.pattern])).toEqual([['SOAPAction', { kind: 'literal', value: '"http://example.com/petstore/v1/getPet"' }]]);
    expect(r.parsed.scenarios[3].response.status).toBe(500);
    // Nothing in a typed request says which calls fail: in progress until values pin it.
    expect(r.parsed.scenarios.map((s) => s.wip)).toEqual([false, false, false, true]);
    const pinned = await importAndParse([file], { examples: true });
    expect(pinned.parsed.scenarios[3].wip).toBe(false);
    expect(pinned.parsed.scenarios[3].examples.map((e) => e.values.get('id'))).toEqual(['999']);
  });

  it('writes typed placeholders, optional and repeated nodes, and the security header', async () => {
    const { contract } = await importAndParse([file]);
    expect(contract).toContain('<pet:id>(number)</pet:id>');
    expect(contract).toContain('<pet:birthDate>(date)</pet:birthDate>');
    expect(contract).toContain('<pet:vaccinated>(boolean)</pet:vaccinated>');
    expect(contract).toContain('<pet:weight>(number)</pet:weight>');
    expect(contract).toContain('<pet:nickname specmatic_occurs="optional">(string)</pet:nickname>');
    expect(contract).toContain('<pet:limit specmatic_occurs="optional">(number)</pet:limit>');
    expect(contract).toContain('(Tag*)');
    expect(contract).toContain('And type Tag <pet:tag>(string)</pet:tag>');
    expect(contract).toContain('(Pet*)');
    expect(contract).toContain('<pet:requestId>(uuid)</pet:requestId>');
    expect(contract).toContain('<pet:created>(datetime)</pet:created>');
    expect(contract).toContain('<wsse:Password Type="(string)">(string)</wsse:Password>');
    expect(contract).not.toContain('hunter2');
    expect(contract).not.toContain('S3cr3t');
  });

  it('every logged request and response matches the contract', async () => {
    const r = await importAndParse([file]);
    expect(unmatched(r)).toEqual([]);
    expect(acceptedBy(r)).toEqual([
      'getPetRequest',
      'getPetRequest',
      'getPetRequest',
      'findPetsRequest',
      'findPetsRequest',
      'addPetRequest',
      'addPetRequest',
      'getPetRequest (fault, status 500)',
    ]);
  });
});

describe('Apache CXF LoggingFeature events (REQ_OUT/RESP_IN/FAULT_IN)', () => {
  const file = fixture('cxf-logging-feature.log');

  it('pairs by ExchangeId, reads a pretty-printed payload, keeps SOAP 1.2', async () => {
    const r = await importAndParse([file]);
    expect(r.parsed.scenarios.map((s) => s.name)).toEqual(['getQuote', 'getHistory', 'getQuote (fault, status 500)']);
    expect(r.report.exchanges).toBe(6);
    expect(r.report.problems).toEqual([]);
    expect(r.contract).toContain('<soap:Envelope xmlns:soap="http://www.w3.org/2003/05/soap-envelope">');
    expect(r.contract).toContain('<q:price currency="(string)">(number)</q:price>');
    expect(r.contract).toContain('<q:point day="(date)">');
    expect(r.contract).toContain('<soap:Text xml:lang="(string)">(string)</soap:Text>');
    expect(r.contract).toContain('And request-header SOAPAction "urn:example:quotes:2:getQuote"');
    expect(r.parsed.scenarios[0].request.path).toBe('/services/quotes');
  });

  it('every logged request and response matches the contract', async () => {
    const r = await importAndParse([file]);
    expect(unmatched(r)).toEqual([]);
  });
});

describe('one-line envelopes after a timestamp and a level (Spring-WS MessageTracing, plain loggers)', () => {
  const file = fixture('spring-ws.log');

  it('pairs "Sent response [..] for request [..]" without counting the request twice', async () => {
    const r = await importAndParse([file]);
    expect(r.parsed.scenarios.map((s) => s.name)).toEqual(['getCountryRequest', 'convertRequest']);
    expect(r.report.exchanges).toBe(6);
    expect(r.report.unpaired).toEqual([]);
    expect(r.report.messages.line).toBe(12);
    expect(r.contract).toContain('<ns2:population>(number)</ns2:population>');
    expect(r.contract).toContain('<cur:date>(date)</cur:date>');
    // No address in these logs: the default path.
    expect(r.parsed.scenarios.every((s) => s.request.path === '/ws')).toBe(true);
  });

  it('every logged request and response matches the contract', async () => {
    const r = await importAndParse([file]);
    expect(unmatched(r)).toEqual([]);
  });
});

describe('pretty-printed envelopes over several lines', () => {
  const file = fixture('pretty-envelopes.log');

  it('reads the direction from the line before, keeps the header, merges the calls', async () => {
    const r = await importAndParse([file]);
    expect(r.parsed.scenarios.map((s) => s.name)).toEqual(['GetInvoice', 'PayInvoice']);
    expect(r.report.messages.pretty).toBe(10);
    expect(r.report.exchanges).toBe(5);
    expect(r.contract).toContain('<bil:TraceId>(uuid)</bil:TraceId>');
    expect(r.contract).toContain('(Line*)');
    expect(r.contract).toContain('<bil:discountPercent specmatic_occurs="optional">(number)</bil:discountPercent>');
    expect(r.contract).toContain('<bil:invoice status="(string)">');
    expect(r.contract).toContain('<bil:amount currency="(string)">(number)</bil:amount>');
    // Empty in one call, text in the other: still (string), which takes "".
    expect(r.contract).toContain('<bil:reference>(string)</bil:reference>');
  });

  it('every logged request and response matches the contract', async () => {
    const r = await importAndParse([file]);
    expect(unmatched(r)).toEqual([]);
  });
});

describe('HAR files with SOAP and JSON entries', () => {
  const file = fixture('recording.har');

  it('writes SOAP and JSON scenarios and counts what it leaves out', async () => {
    const r = await importAndParse([file]);
    expect(r.parsed.scenarios.map((s) => s.name)).toEqual(['GET /api/pets/(petId:number)', 'GET /api/pets', 'POST /api/orders (status 201)', 'Add', 'Divide (fault, status 500)']);
    const skipped = r.report.skipped.get('HAR entries that are neither SOAP nor JSON');
    expect(skipped?.count).toBe(3);
    expect([...skipped!.details.keys()].sort()).toEqual(['image/png', 'text/css', 'text/html']);
    expect(r.contract).toContain('"nickname?": "(string)"');
    expect(r.contract).toContain('"(Item*)"');
    expect(r.contract).toContain('"shipDate": "(datetime)"');
    expect(r.contract).toContain('When GET /api/pets?status=(string)&limit=(number)');
    expect(r.contract).toContain('<AddResult>(number)</AddResult>');
    expect(r.contract).not.toContain('eyJhbGciOiJIUzI1NiJ9');
  });

  it('every logged request and response matches the contract', async () => {
    const r = await importAndParse([file]);
    expect(unmatched(r)).toEqual([]);
  });
});

describe('several logs at once', () => {
  it('makes one contract of all of them, and every call matches it', async () => {
    const files = ['cxf-interceptors.log', 'cxf-logging-feature.log', 'spring-ws.log', 'pretty-envelopes.log', 'recording.har'].map(fixture);
    const r = await importAndParse(files);
    expect(r.report.exchanges).toBe(8 + 6 + 6 + 5 + 10);
    expect(r.parsed.scenarios).toHaveLength(4 + 3 + 2 + 2 + 5);
    expect(unmatched(r)).toEqual([]);
  });

  it('with --examples the contract still parses and matches, with one row per distinct call', async () => {
    const files = ['cxf-interceptors.log', 'cxf-logging-feature.log', 'spring-ws.log', 'pretty-envelopes.log', 'recording.har'].map(fixture);
    const r = await importAndParse(files, { examples: true });
    expect(unmatched(r)).toEqual([]);
    const country = r.parsed.scenarios.find((s) => s.name === 'getCountryRequest')!;
    expect(country.examples.map((e) => e.values.get('name'))).toEqual(['Spain', 'Poland', 'United Kingdom']);
  });
});
