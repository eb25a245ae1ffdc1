import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { request } from 'undici';
import { parseContract, testCases } from '../../src/contract/load';
import { decodeXml } from '../../src/files';
import { bodyText } from '../../src/http/content-type';
import { runCase } from '../../src/runner/run-case';
import { startStub } from '../../src/stub';
import { childEnv } from '../helpers/child-env';
import { startServer } from '../helpers/servers';

/**
 * Older Java, PHP and Delphi services answer in ISO-8859-1 or windows-1252, named by the Content-Type's
 * charset or only by the XML declaration; .NET writes UTF-16. accord reads each as the message says,
 * so an accented value is the value, not a replacement character.
 */
const SOAP11 = 'http://schemas.xmlsoap.org/soap/envelope/';
const envelope = (body: string, declaration = '') =>
  `${declaration}<s:Envelope xmlns:s="${SOAP11}"><s:Body><c:city xmlns:c="http://example.com/c">${body}</c:city></s:Body></s:Envelope>`;
const CONTRACT_TEXT = [
  'Feature: cities',
  '  Scenario: a city',
  '    Given request-header Content-Type text/xml',
  `    When POST /ws`,
  '    And request-body <s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body><c:city xmlns:c="http://example.com/c">Zürich</c:city></s:Body></s:Envelope>',
  '    Then status 200',
  '    And response-body <s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body><c:city xmlns:c="http://example.com/c">Café Genève</c:city></s:Body></s:Envelope>',
  '',
].join('\n');
const CONTRACT = parseContract(CONTRACT_TEXT, 'cities.spec');

describe('decodeXml: byte order mark, then the transport charset, then the XML declaration, else UTF-8', () => {
  const cafe = 'Café';
  test.each([
    ['UTF-8, nothing declared', Buffer.from(`<a>${cafe}</a>`), undefined],
    ['UTF-8 with a byte order mark', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(`<a>${cafe}</a>`)]), undefined],
    ['ISO-8859-1 by the charset', Buffer.from(`<a>${cafe}</a>`, 'latin1'), 'ISO-8859-1'],
    ['windows-1252 by the charset, quoted names and case aside', Buffer.from(`<a>${cafe}</a>`, 'latin1'), 'Windows-1252'],
    ['ISO-8859-1 by the declaration', Buffer.from(`<?xml version="1.0" encoding="ISO-8859-1"?><a>${cafe}</a>`, 'latin1'), undefined],
    ['UTF-16LE with a mark', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(`<a>${cafe}</a>`, 'utf16le')]), undefined],
    ['UTF-16LE without a mark', Buffer.from(`<a>${cafe}</a>`, 'utf16le'), undefined],
  ])('%s', (_, bytes, charset) => {
    expect(decodeXml(bytes, charset)).toMatch(/<a>Café<\/a>$/);
  });

  test('the charset outranks the declaration (RFC 7303), the mark outranks both, and an unknown label reads as UTF-8', () => {
    expect(decodeXml(Buffer.from(`<?xml version="1.0" encoding="ISO-8859-1"?><a>${cafe}</a>`), 'utf-8')).toContain(cafe);
    expect(decodeXml(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(`<a>${cafe}</a>`)]), 'iso-8859-1')).toBe(`<a>${cafe}</a>`);
    expect(decodeXml(Buffer.from(`<a>${cafe}</a>`), 'x-no-such-charset')).toBe(`<a>${cafe}</a>`);
    expect(bodyText(Buffer.from(`{"city":"${cafe}"}`, 'latin1'), 'application/json; Charset="ISO-8859-1"')).toBe(`{"city":"${cafe}"}`);
  });
});

describe('the runner reads a live service’s answer in the encoding it names', () => {
  test.each([
    ['the Content-Type charset', 'text/xml; charset=ISO-8859-1', ''],
    ['the XML declaration only', 'text/xml', '<?xml version="1.0" encoding="ISO-8859-1"?>'],
  ])('ISO-8859-1 by %s', async (_, contentType, declaration) => {
    const server = await startServer(() => ({ type: contentType, body: Buffer.from(envelope('Café Genève', declaration), 'latin1') }));
    try {
      const r = await runCase(testCases(CONTRACT)[0]!, { baseUrl: server.url, timeoutMs: 5_000 });
      expect(r.mismatches).toEqual([]);
      expect(r.passed).toBe(true);
    } finally {
      await server.close();
    }
  });
});

test('the stub reads an ISO-8859-1 request as ISO-8859-1', async () => {
  const stub = await startStub({ contracts: CONTRACT, log: () => {} });
  try {
    const send = async (bytes: Buffer, contentType: string) => {
      const res = await request(`${stub.url}/ws`, { method: 'POST', body: bytes, headers: { 'content-type': contentType } });
      return { status: res.statusCode, body: await res.body.text() };
    };
    expect((await send(Buffer.from(envelope('Zürich'), 'latin1'), 'text/xml; charset=iso-8859-1')).status).toBe(200);
    const declared = await send(Buffer.from(envelope('Zürich', '<?xml version="1.0" encoding="ISO-8859-1"?>'), 'latin1'), 'text/xml');
    expect(declared.status).toBe(200);
    expect(declared.body).toContain('Café Genève');
    expect((await send(Buffer.from(envelope('Zürich'), 'utf8'), 'text/xml; charset=utf-8')).status).toBe(200);
    // The same Latin-1 bytes called UTF-8 are not Zürich: the request is refused, as it should be.
    expect((await send(Buffer.from(envelope('Zürich'), 'latin1'), 'text/xml; charset=utf-8')).status).toBe(400);
  } finally {
    await stub.close();
  }
});

test('accord validate reads a recorded ISO-8859-1 answer by its declaration', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'accord-charset-'));
  try {
    writeFileSync(path.join(dir, 'cities.spec'), CONTRACT_TEXT);
    writeFileSync(path.join(dir, 'answer.xml'), Buffer.from(envelope('Café Genève', '<?xml version="1.0" encoding="ISO-8859-1"?>\n'), 'latin1'));
    const r = spawnSync(process.execPath, [path.resolve(__dirname, '../../bin/accord.js'), 'validate', 'answer.xml', '--contract', 'cities.spec', '--response'], {
      cwd: dir,
      env: childEnv(),
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(r.stderr).toBe('');
    expect(r.stdout).toContain('fits a scenario');
    expect(r.status).toBe(0);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a stub started from an ISO-8859-1 WSDL serves it at ?wsdl as UTF-8, its text intact and its declaration dropped', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'accord-charset-'));
  const original = readFileSync(path.resolve(__dirname, '../fixtures/soap/petstore.wsdl'), 'utf8');
  const latin = original
    .replace('<?xml version="1.0" encoding="UTF-8"?>', '<?xml version="1.0" encoding="ISO-8859-1"?>')
    .replace('<definitions name="PetService"', '<!-- Tierhandlung für Katzen -->\n<definitions name="PetService"');
  expect(latin).not.toBe(original);
  writeFileSync(path.join(dir, 'petstore.wsdl'), Buffer.from(latin, 'latin1'));
  const stub = await startStub({ contracts: path.join(dir, 'petstore.wsdl'), log: () => {} });
  try {
    const res = await request(`${stub.url}/ws?wsdl`);
    expect(res.headers['content-type']).toBe('text/xml; charset=utf-8');
    const text = await res.body.text();
    expect(text).toContain('Tierhandlung für Katzen');
    expect(text).not.toContain('ISO-8859-1');
  } finally {
    await stub.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
