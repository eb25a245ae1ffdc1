import path from 'node:path';
import { createClientAsync } from 'soap';
import { request } from 'undici';
import { parseContract, testCases } from '../../src/contract/load';
import { isXop, unpackXop } from '../../src/http/xop';
import { MAX_MIME_PARTS } from '../../src/limits';
import { runCase } from '../../src/runner/run-case';
import { startStub } from '../../src/stub';
import { startServer } from '../helpers/servers';

/**
 * MTOM/XOP: WCF with MTOM encoding sends every message as multipart/related, CXF and the `soap`
 * package when told to. The contract describes the envelope with its values inline, and that is
 * what is matched: the root part, each xop:Include replaced by the base64 of its part.
 */
const XOP = 'http://www.w3.org/2004/08/xop/include';
const PHOTO = Buffer.from([0, 1, 2, 0xff, 0x0d, 0x0a, 0x2d, 0x2d]); // binary, with a CRLF and dashes in it
const soap12 = (body: string) => `<s:Envelope xmlns:s="http://www.w3.org/2003/05/soap-envelope"><s:Body>${body}</s:Body></s:Envelope>`;
const soap11 = (body: string) => `<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body>${body}</s:Body></s:Envelope>`;

/** A WCF-shaped MTOM message: the root part first, `start` naming it, binary parts after it, CRLF line ends. */
function mtom(envelope: string, attachments: { id: string; bytes: Buffer }[], o: { startInfo?: string; eol?: string; start?: boolean; action?: string } = {}) {
  const eol = o.eol ?? '\r\n';
  const boundary = 'uuid:0ca0e16e-feb1-426c-97d8-c4508ada5e82+id=1';
  const head = (lines: string[]) => Buffer.from(lines.join(eol) + eol + eol);
  const chunks: Buffer[] = [
    Buffer.from(`--${boundary}${eol}`),
    head([
      `Content-ID: <http://tempuri.org/0>`,
      'Content-Transfer-Encoding: 8bit',
      `Content-Type: application/xop+xml;charset=utf-8;type="${o.startInfo ?? 'application/soap+xml'}"`,
    ]),
    Buffer.from(envelope),
  ];
  for (const a of attachments)
    chunks.push(Buffer.from(`${eol}--${boundary}${eol}`), head([`Content-ID: <${a.id}>`, 'Content-Transfer-Encoding: binary', 'Content-Type: application/octet-stream']), a.bytes);
  chunks.push(Buffer.from(`${eol}--${boundary}--${eol}`));
  const contentType =
    `multipart/related; type="application/xop+xml"; boundary="${boundary}"` +
    (o.start === false ? '' : '; start="<http://tempuri.org/0>"') +
    `; start-info="${o.startInfo ?? 'application/soap+xml'}"` +
    (o.action ? `; action="${o.action}"` : '');
  return { bytes: Buffer.concat(chunks), contentType };
}

const include = (id: string, prefix = 'xop') => `<${prefix}:Include href="cid:${encodeURIComponent(id)}" xmlns:${prefix}="${XOP}"/>`;

describe('unpackXop', () => {
  test('the root part with each Include inlined as base64, and the Content-Type the envelope would have had', () => {
    const m = mtom(soap12(`<r:photo xmlns:r="urn:r">${include('1.urn:uuid:a@tempuri.org')}</r:photo>`), [{ id: '1.urn:uuid:a@tempuri.org', bytes: PHOTO }], { action: 'urn:get' });
    expect(isXop(m.contentType)).toBe(true);
    const x = unpackXop(m.bytes, m.contentType)!;
    expect(x.text).toBe(soap12(`<r:photo xmlns:r="urn:r">${PHOTO.toString('base64')}</r:photo>`));
    expect(x.contentType).toBe('application/soap+xml; action="urn:get"');
  });

  test('LF line ends, no start parameter (the first part is the root), an Include with an end tag and another prefix', () => {
    const body = soap11(`<r:a xmlns:r="urn:r"><x:Include xmlns:x="${XOP}" href='cid:p2'></x:Include></r:a>`);
    const m = mtom(body, [{ id: 'p2', bytes: PHOTO }], { startInfo: 'text/xml', eol: '\n', start: false });
    const x = unpackXop(m.bytes, m.contentType)!;
    expect(x.text).toBe(soap11(`<r:a xmlns:r="urn:r">${PHOTO.toString('base64')}</r:a>`));
    expect(x.contentType).toBe('text/xml');
  });

  test('an Include naming no part, or an element called Include outside the XOP namespace, is left as it is', () => {
    const body = soap11(`<r:a xmlns:r="urn:r">${include('nowhere')}<r:Include href="cid:p2"/></r:a>`);
    const m = mtom(body, [{ id: 'p2', bytes: PHOTO }], { startInfo: 'text/xml' });
    expect(unpackXop(m.bytes, m.contentType)!.text).toBe(body);
  });

  test('not XOP, no boundary, no parts or too many parts: not unpacked', () => {
    expect(isXop('multipart/related; type="text/xml"; boundary=b')).toBe(false);
    expect(isXop('text/xml; charset=utf-8')).toBe(false);
    expect(unpackXop(Buffer.from('x'), 'multipart/related; type="application/xop+xml"')).toBeUndefined();
    expect(unpackXop(Buffer.from('no delimiter here'), 'multipart/related; type="application/xop+xml"; boundary=b')).toBeUndefined();
    const many = mtom(
      soap11('<a/>'),
      Array.from({ length: MAX_MIME_PARTS + 1 }, (_, i) => ({ id: `p${i}`, bytes: Buffer.from('x') })),
      { startInfo: 'text/xml' },
    );
    expect(unpackXop(many.bytes, many.contentType)).toBeUndefined();
  });

  test('linear on hostile text: a megabyte of unclosed Include tags', () => {
    const body = `<a xmlns:xop="${XOP}">${'<xop:Include href="cid:x" '.repeat(40_000)}</a>`;
    const m = mtom(body, [], { startInfo: 'text/xml' });
    const t0 = process.cpuUsage();
    unpackXop(m.bytes, m.contentType);
    const { user, system } = process.cpuUsage(t0);
    expect((user + system) / 1000).toBeLessThan(1_000);
  });
});

const CONTRACT = parseContract(
  [
    'Feature: photos',
    '  Scenario: a photo',
    '    When POST /photos',
    `    And request-body ${soap12('<r:get xmlns:r="urn:r">(string)</r:get>')}`,
    '    Then status 200',
    `    And response-body ${soap12(`<r:photo xmlns:r="urn:r"><r:name>(string)</r:name><r:data>${PHOTO.toString('base64')}</r:data></r:photo>`)}`,
    '',
  ].join('\n'),
  'photos.spec',
);

test('the runner accepts a WCF-shaped MTOM answer whose binary value is the one the contract expects, and names a wrong one', async () => {
  let photo = PHOTO;
  const server = await startServer(() => {
    const m = mtom(soap12(`<r:photo xmlns:r="urn:r"><r:name>cat</r:name><r:data>${include('1.urn:uuid:a@tempuri.org')}</r:data></r:photo>`), [
      { id: '1.urn:uuid:a@tempuri.org', bytes: photo },
    ]);
    return { type: m.contentType, body: m.bytes };
  });
  const url = server.url;
  try {
    const ok = await runCase(testCases(CONTRACT)[0]!, { baseUrl: url, timeoutMs: 5_000 });
    expect(ok.mismatches).toEqual([]);
    expect(ok.passed).toBe(true);
    photo = Buffer.from('other bytes');
    const wrong = await runCase(testCases(CONTRACT)[0]!, { baseUrl: url, timeoutMs: 5_000 });
    expect(wrong.passed).toBe(false);
    expect(wrong.mismatches.map((m) => m.path)).toEqual(['RESPONSE.BODY Envelope/Body/photo/data']);
  } finally {
    await server.close();
  }
});

test('the stub answers a soap client that sends MTOM (the soap package, forceMTOM)', async () => {
  const stub = await startStub({ contracts: path.resolve(__dirname, '../fixtures/soap/petstore.wsdl'), log: () => {} });
  try {
    const client = await createClientAsync(`${stub.url}/ws?wsdl`);
    const [result] = (await client.getPetAsync({ id: 3 }, { forceMTOM: true })) as [{ name: string }];
    expect(typeof result.name).toBe('string');
    const [call] = stub.calls();
    expect(call!.headers['content-type']).toBe('text/xml');
    expect(call!.answeredBy).toBe('scenario');
    // Without the unpacking the same bytes were no SOAP request at all.
    const raw = mtom(soap11('<p:getPetRequest xmlns:p="http://example.com/petstore"><p:id>x</p:id></p:getPetRequest>'), [], { startInfo: 'text/xml' });
    const refused = await request(`${stub.url}/ws`, { method: 'POST', body: raw.bytes, headers: { 'content-type': raw.contentType } });
    expect(refused.statusCode).toBe(400);
    expect(await refused.body.text()).toContain('Envelope/Body/getPetRequest/id');
  } finally {
    await stub.close();
  }
});
