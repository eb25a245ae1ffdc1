import { existsSync, readdirSync, readFileSync, readlinkSync, realpathSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { importLogs } from '../../src/logs';
import { cli, fixture, importAndParse, scratch, unmatched } from './helpers';

/**
 * Every input is hostile. Through the built CLI: each bad input gets a message
 * naming the file (and the line, when there is one) and exit code 2, and no
 * contract is written.
 */
const tmp = scratch();
afterAll(() => tmp.cleanup());

const SOAP = 'xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"';

function expectRefused(args: string[], message: RegExp): void {
  const r = cli(['import', 'log', ...args, '--output', 'out.spec'], tmp.dir);
  expect(r.stderr).toMatch(message);
  expect(r.status).toBe(2);
  expect(() => readFileSync(`${tmp.dir}/out.spec`)).toThrow();
}

describe('accord import log refuses bad input with exit code 2', () => {
  it('an empty file', () => {
    tmp.write('empty.log', '');
    expectRefused(['empty.log'], /^accord import log: empty\.log: the log is empty$/m);
  });

  it('a file of blank lines', () => {
    tmp.write('blank.log', '\n\n   \n');
    expectRefused(['blank.log'], /blank\.log: the log holds only blank lines/);
  });

  it('a binary file', () => {
    tmp.write('image.png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52]));
    expectRefused(['image.png'], /^accord import log: image\.png is binary \(byte 8 is a control character\), not a text log/m);
  });

  it('a gzip file holding binary data', () => {
    tmp.write('data.gz', gzipSync(Buffer.alloc(4096, 0)));
    expectRefused(['data.gz'], /^accord import log: data\.gz is binary \(byte 0 after gzip inflation/m);
  });

  it('a damaged gzip file', () => {
    tmp.write('cut.log.gz', gzipSync(readFileSync(fixture('spring-ws.log'))).subarray(0, 300));
    expectRefused(['cut.log.gz'], /cut\.log\.gz: the gzip-compressed log is damaged or cut short/);
  });

  it('an envelope cut short by the end of the log, with the line it starts on', () => {
    tmp.write('truncated.log', readFileSync(fixture('pretty-envelopes.log'), 'utf8').slice(0, 2000));
    expectRefused(['truncated.log'], /truncated\.log:41: truncated envelope: <soapenv:Envelope> opened here is never closed \(the log ends before it closes\)/);
  });

  it('a one-line envelope cut short before the next log record', () => {
    tmp.write(
      'cut-line.log',
      [
        `2024-01-01 10:00:00 INFO x - Request: <soap:Envelope ${SOAP}><soap:Body><a>1</a></soap:Body>`,
        `2024-01-01 10:00:01 INFO x - Response: <soap:Envelope ${SOAP}><soap:Body><aResponse>1</aResponse></soap:Body></soap:Envelope>`,
      ].join('\n'),
    );
    expectRefused(['cut-line.log'], /cut-line\.log:1: truncated envelope: <soap:Envelope> opened here is never closed \(a new log record starts at line 2 before it closes\)/);
  });

  it('a CXF block whose payload CXF itself truncated', () => {
    const log = readFileSync(fixture('cxf-interceptors.log'), 'utf8').replace('Headers: {}\nPayload:', 'Headers: {}\nMessages: (message truncated to 49152 bytes)\nPayload:');
    tmp.write('cxf-cut.log', log);
    expectRefused(['cxf-cut.log'], /cxf-cut\.log:23: CXF cut this payload short \(message truncated to 49152 bytes\); raise the logging interceptor's limit/);
  });

  it('an HTTP method a contract cannot name (it made a contract accord could not read back)', () => {
    const log = readFileSync(fixture('cxf-interceptors.log'), 'utf8').replace('Http-Method: POST', 'Http-Method: P0ST');
    tmp.write('cxf-method.log', log);
    expectRefused(['cxf-method.log'], /cxf-method\.log:\d+: the logged request has the HTTP method "P0ST", not one of GET, POST, PUT, DELETE, PATCH, HEAD, OPTIONS, TRACE/);
  });

  it('a status that is not an HTTP status code (it made a contract accord could not read back)', () => {
    tmp.write('status.har', readFileSync(fixture('recording.har'), 'utf8').replace(/"status": 200/g, '"status": 1'));
    expectRefused(['status.har'], /status\.har:\d+: the logged response has the status 1, not an HTTP status code from 100 to 599/);
  });

  it('a CXF block the log ends inside', () => {
    const text = readFileSync(fixture('cxf-interceptors.log'), 'utf8').split('\n').slice(0, 12).join('\n');
    tmp.write('cxf-end.log', text);
    expectRefused(['cxf-end.log'], /cxf-end\.log:12: the log ends inside this CXF block: the payload is cut short/);
  });

  it('an envelope that is not well-formed, with the line of the fault', () => {
    tmp.write('bad-xml.log', `INFO Request:\n<soap:Envelope ${SOAP}>\n  <soap:Body>\n    <a>1</b>\n  </soap:Body>\n</soap:Envelope>\n`);
    expectRefused(['bad-xml.log'], /bad-xml\.log:4: the logged request is not well-formed XML/);
  });

  it('a DOCTYPE inside a logged payload (no DTDs, no entities)', () => {
    const log = readFileSync(fixture('cxf-interceptors.log'), 'utf8').replace(
      'Payload: <soap:Envelope',
      'Payload: <?xml version="1.0"?><!DOCTYPE soap:Envelope [<!ENTITY boom "boom">]><soap:Envelope',
    );
    tmp.write('doctype.log', log);
    expectRefused(['doctype.log'], /doctype\.log:12: the logged request is not well-formed XML: a DOCTYPE is not allowed/);
  });

  it('a HAR file cut short', () => {
    tmp.write('cut.har', readFileSync(fixture('recording.har'), 'utf8').slice(0, 5000));
    expectRefused(['cut.har'], /cut\.har:\d+: the HAR file is cut short: its JSON never closes/);
  });

  it('a log with no request/response pair in it', () => {
    tmp.write('nothing.log', 'just\nsome ordinary\nlog lines\n');
    expectRefused(['nothing.log'], /no request\/response pair found in nothing\.log\n\s+1 file: no messages.*\n\s+skipped: 3 lines with no message/);
  });

  it('a missing file and a folder', () => {
    expectRefused(['missing.log'], /^accord import log: no such file: missing\.log$/m);
    expectRefused(['.'], /^accord import log: \. is a folder, not a log: accord reads only regular files$/m);
  });

  it('bad options', () => {
    tmp.write('ok.log', readFileSync(fixture('spring-ws.log')));
    expectRefused(['ok.log', '--path', 'ws'], /--path must start with "\/"/);
    expectRefused(['ok.log', '--max-examples', '0'], /--max-examples must be a whole number above 0/);
  });
});

describe('--skip-invalid', () => {
  it('leaves unreadable messages out, names them, and writes the rest', () => {
    tmp.write('partly.log', readFileSync(fixture('pretty-envelopes.log'), 'utf8').replace('<bil:paid>false</bil:paid>', '<bil:paid>false</bil:pay>'));
    const r = cli(['import', 'log', 'partly.log', '--skip-invalid', '--output', 'partly.spec'], tmp.dir);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/left out partly\.log:\d+: the logged response is not well-formed XML/);
    expect(r.stdout).toMatch(/unpaired: 1 message left out:\n\s+partly\.log:2: request: no response in the logs|unpaired: 1 message/);
    expect(r.stdout).toMatch(/checked: all 4 logged calls match the contract/);
  });
});

describe('bounded reading (library limits)', () => {
  it('a line longer than the limit is cut and its envelope reported, never held whole', async () => {
    const big = `INFO Request: <soap:Envelope ${SOAP}><soap:Body><a>${'x'.repeat(5000)}</a></soap:Body></soap:Envelope>\n`;
    const file = tmp.write('long.log', big);
    const r = await importLogs([file], { limits: { maxLineChars: 1000 } });
    expect(r.contract).toBeUndefined();
    expect(r.report.problems.map((p) => p.describe())).toEqual([`${file}:1: this line is longer than 1000 characters; the envelope on it is not read`]);
  });

  it('a message larger than the limit is reported with its line', async () => {
    const lines = ['INFO Request:', `<soap:Envelope ${SOAP}>`, '<soap:Body><a>', ...Array.from({ length: 200 }, () => 'y'.repeat(100)), '</a></soap:Body>', '</soap:Envelope>'];
    const file = tmp.write('large.log', lines.join('\n'));
    const r = await importLogs([file], { limits: { maxMessageChars: 10_000 } });
    expect(r.report.problems.map((p) => p.describe())).toEqual([`${file}:2: the envelope is larger than 10000 characters`]);
  });

  it('requests that never get a response are bounded and reported', async () => {
    const req = (i: number) => `INFO Request: <soap:Envelope ${SOAP}><soap:Body><ping><n>${i}</n></ping></soap:Body></soap:Envelope>`;
    const file = tmp.write('requests.log', Array.from({ length: 30 }, (_, i) => req(i)).join('\n'));
    const r = await importLogs([file], { limits: { maxPending: 10 } });
    expect(r.contract).toBeUndefined();
    expect(r.report.unpaired).toHaveLength(30);
    expect(r.report.unpaired[0].why).toBe('still waiting for a response when 10 other requests were');
    expect(r.report.unpaired[29].why).toBe('no response in the logs');
  });

  it('a HAR entry larger than the limit is reported and the others read', async () => {
    const har = JSON.parse(readFileSync(fixture('recording.har'), 'utf8'));
    har.log.entries[3].response.content.text = JSON.stringify({ id: 12, name: 'x'.repeat(50_000) });
    const file = tmp.write('big.har', JSON.stringify(har, null, 1));
    const r = await importLogs([file], { limits: { maxHarEntryChars: 20_000 } });
    expect(r.report.problems.map((p) => p.message)).toEqual(['this HAR entry is larger than 20000 characters; it is not read']);
    expect(r.report.exchanges).toBe(9);
  });
});

describe('many requests waiting at once', () => {
  const SOAP11 = 'xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"';
  const env = (body: string) => `<soap:Envelope ${SOAP11}><soap:Body>${body}</soap:Body></soap:Envelope>`;

  it('older waiting requests drop their parsed body and are parsed again when their response comes', async () => {
    const n = 600;
    const lines = [
      ...Array.from({ length: n }, (_, i) => `INFO Request: ${env(`<ping><n>${i}</n><at>2024-01-01</at></ping>`)}`),
      ...Array.from({ length: n }, (_, i) => `INFO Response: ${env(`<pingResponse><n>${i}</n></pingResponse>`)}`),
    ];
    const r = await importAndParse([tmp.write('burst.log', lines.join('\n'))]);
    expect(r.report.exchanges).toBe(n);
    expect(r.report.unpairedCount).toBe(0);
    expect(r.contract).toContain('<at>(date)</at>');
    expect(unmatched(r)).toEqual([]);
  });

  it('waiting requests are bounded in characters too, and reports keep the first 1000 only', async () => {
    const body = 'x'.repeat(1000);
    const lines = Array.from({ length: 1500 }, (_, i) => `INFO Request: ${env(`<ping${i % 3}><p>${body}</p></ping${i % 3}>`)}`);
    const r = await importLogs([tmp.write('flood.log', lines.join('\n'))], { limits: { maxPendingChars: 100_000 } });
    expect(r.report.unpairedCount).toBe(1500);
    expect(r.report.unpaired).toHaveLength(1000);
    expect(r.report.unpaired[0].why).toBe('still waiting for a response when 100000 characters of requests were');
  });
});

describe('ever-new node names', () => {
  it('stop the import at a bound, with the call that crossed it', async () => {
    const SOAP11 = 'xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"';
    const lines = Array.from({ length: 200 }, (_, i) => [
      `INFO Request: <soap:Envelope ${SOAP11}><soap:Body><op>${Array.from({ length: 10 }, (_, k) => `<n${i}_${k}>1</n${i}_${k}>`).join('')}</op></soap:Body></soap:Envelope>`,
      `INFO Response: <soap:Envelope ${SOAP11}><soap:Body><opResponse/></soap:Body></soap:Envelope>`,
    ]).flat();
    const file = tmp.write('names.log', lines.join('\n'));
    await expect(importLogs([file], { limits: { maxShapeNodes: 500 } })).rejects.toThrow(/more than 500 distinct nodes by this call/);
    const r = cli(['import', 'log', 'names.log', '-o', '-'], tmp.dir);
    expect(r.status).toBe(0);
  });
});

describe('a refused log leaves no file open', () => {
  // Linux lists a process's open descriptors in /proc/self/fd; elsewhere there is nothing to count.
  const opened = (file: string): number =>
    readdirSync('/proc/self/fd').filter((fd) => {
      try {
        return readlinkSync(`/proc/self/fd/${fd}`) === file;
      } catch {
        return false; // closed while listing
      }
    }).length;
  const linux = existsSync('/proc/self/fd');

  (linux ? it : it.skip)('twenty refusals in a row close their twenty files without waiting for garbage collection', async () => {
    // Longer than the first look (256 characters), so the refusal comes while the file is still being read.
    const file = tmp.write('blank-again.log', ' \n'.repeat(2000));
    for (let i = 0; i < 20; i++) {
      await expect(importLogs([file])).rejects.toThrow(/only blank lines/);
    }
    expect(opened(realpathSync(file))).toBe(0);
  });
});
