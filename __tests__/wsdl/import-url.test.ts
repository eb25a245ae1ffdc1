import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadContract } from '../../src/contract/load';
import { fetchWsdlSet } from '../../src/wsdl/fetch';
import { request } from 'undici';
import { runAccord } from '../helpers/cli-run';
import { runCli, startStubProcess } from '../stub/helpers';

/**
 * `accord import wsdl <URL>`: the WSDL and every document it imports, includes or redefines are
 * fetched from plain HTTP servers on 127.0.0.1, written beside the contract with their locations
 * rewritten, and imported; what cannot be fetched is an error (exit 2) naming it, unless
 * --allow-unresolved. Bounded: documents, bytes, time, origins, redirects; safe file names.
 */

type Handler = (req: IncomingMessage, res: ServerResponse) => void;
interface Site {
  url: string;
  asked: string[];
  headers: IncomingMessage['headers'][];
  close(): Promise<void>;
}

async function site(pages: Record<string, string | Handler>): Promise<Site> {
  const asked: string[] = [];
  const headers: IncomingMessage['headers'][] = [];
  const server: Server = createServer((req, res) => {
    asked.push(req.url ?? '');
    headers.push(req.headers);
    const page = pages[req.url ?? ''];
    if (typeof page === 'function') return page(req, res);
    if (page === undefined) {
      res.statusCode = 404;
      res.end();
      return;
    }
    res.writeHead(200, { 'content-type': 'text/xml; charset=utf-8' });
    res.end(page);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    asked,
    headers,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const NS = 'urn:accord:orders';
const XS = 'http://www.w3.org/2001/XMLSchema';

/** A document/literal WSDL with one operation whose elements are declared by `schemaImports` (inside <types>) and `wsdlImports`. */
function wsdl(o: { schemaImports?: string; wsdlImports?: string; messages?: boolean } = {}): string {
  return (
    `<?xml version="1.0" encoding="UTF-8"?>` +
    `<definitions xmlns="http://schemas.xmlsoap.org/wsdl/" xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/" xmlns:xsd="${XS}" xmlns:tns="${NS}" targetNamespace="${NS}" name="Orders">` +
    (o.wsdlImports ?? '') +
    `<types><xsd:schema targetNamespace="${NS}:wrap">${o.schemaImports ?? ''}</xsd:schema></types>` +
    (o.messages === false
      ? ''
      : `<message name="req"><part name="p" element="tns:getOrder"/></message><message name="res"><part name="p" element="tns:getOrderResponse"/></message>`) +
    `<portType name="OrdersPort"><operation name="getOrder"><input message="tns:req"/><output message="tns:res"/></operation></portType>` +
    `<binding name="OrdersBinding" type="tns:OrdersPort"><soap:binding transport="http://schemas.xmlsoap.org/soap/http" style="document"/>` +
    `<operation name="getOrder"><soap:operation soapAction=""/><input><soap:body use="literal"/></input><output><soap:body use="literal"/></output></operation></binding>` +
    `<service name="OrdersService"><port name="OrdersPort" binding="tns:OrdersBinding"><soap:address location="http://127.0.0.1:1/orders"/></port></service></definitions>`
  );
}

const ELEMENTS =
  `<xs:element name="getOrder"><xs:complexType><xs:sequence><xs:element name="id" type="xs:int"/></xs:sequence></xs:complexType></xs:element>` +
  `<xs:element name="getOrderResponse"><xs:complexType><xs:sequence><xs:element name="order" type="c:order"/></xs:sequence></xs:complexType></xs:element>`;

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'accord-import-url-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));
const accord = (...argv: string[]) => runAccord(argv, dir);

test('chained imports, includes and a redefine (relative, absolute, ?xsd=N, the same twice, a cycle) are fetched once each and written beside the contract', async () => {
  // Filled once the server's address is known; read at each request.
  const pages: Record<string, string> = {};
  const real = await site(pages);
  const base = real.url;
  // The WSDL imports ?xsd=1 twice (from its inline schema, and through the ?wsdl=2 it imports).
  pages['/orders/svc?wsdl'] = wsdl({
    schemaImports: `<xsd:import namespace="${NS}" schemaLocation="svc?xsd=1"/>`,
    wsdlImports: `<import namespace="${NS}:more" location="${base}/orders/svc?wsdl=2"/>`,
  });
  pages['/orders/svc?wsdl=2'] =
    `<definitions xmlns="http://schemas.xmlsoap.org/wsdl/" xmlns:xsd="${XS}" targetNamespace="${NS}:more"><types><xsd:schema targetNamespace="${NS}:more2"><xsd:import namespace="${NS}" schemaLocation="?xsd=1"/></xsd:schema></types></definitions>`;
  // ?xsd=1 imports the common schema by absolute URL; that one includes a relative file and imports ?xsd=1 back (a cycle).
  pages['/orders/svc?xsd=1'] =
    `<xs:schema xmlns:xs="${XS}" xmlns:c="urn:accord:common" targetNamespace="${NS}" elementFormDefault="qualified"><xs:import namespace="urn:accord:common" schemaLocation="${base}/schemas/common.xsd"/>${ELEMENTS}</xs:schema>`;
  pages['/schemas/common.xsd'] =
    `<xs:schema xmlns:xs="${XS}" targetNamespace="urn:accord:common"><xs:import namespace="${NS}" schemaLocation="../orders/svc?xsd=1"/><xs:redefine schemaLocation="types/base.xsd"><xs:simpleType name="code"><xs:restriction base="code"><xs:maxLength value="8"/></xs:restriction></xs:simpleType></xs:redefine>` +
    `<xs:complexType name="order"><xs:sequence><xs:element name="id" type="xs:int"/><xs:element name="total" type="xs:decimal"/><xs:element name="code" type="c:code" xmlns:c="urn:accord:common"/></xs:sequence></xs:complexType></xs:schema>`;
  pages['/schemas/types/base.xsd'] =
    `<xs:schema xmlns:xs="${XS}" targetNamespace="urn:accord:common"><xs:simpleType name="code"><xs:restriction base="xs:string"/></xs:simpleType></xs:schema>`;
  try {
    const r = await accord('import', 'wsdl', `${base}/orders/svc?wsdl`, '-o', 'orders.spec');
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^fetched 5 documents from http:\/\/127\.0\.0\.1:\d+: wrote svc\.wsdl, svc_wsdl2\.wsdl, svc_xsd1\.xsd, common\.xsd, base\.xsd\nwrote orders\.spec\n/);
    expect(r.out).not.toMatch(/anything|unresolved/);
    // Each document asked for once, however often it is imported.
    expect([...real.asked].sort()).toEqual(['/orders/svc?wsdl', '/orders/svc?wsdl=2', '/orders/svc?xsd=1', '/schemas/common.xsd', '/schemas/types/base.xsd']);
    expect(readdirSync(dir).sort()).toEqual(['base.xsd', 'common.xsd', 'orders.spec', 'svc.wsdl', 'svc_wsdl2.wsdl', 'svc_xsd1.xsd']);
    // The locations point at the files beside it.
    expect(readFileSync(path.join(dir, 'svc.wsdl'), 'utf8')).toContain('schemaLocation="svc_xsd1.xsd"');
    expect(readFileSync(path.join(dir, 'svc.wsdl'), 'utf8')).toContain('location="svc_wsdl2.wsdl"');
    expect(readFileSync(path.join(dir, 'common.xsd'), 'utf8')).toContain('schemaLocation="svc_xsd1.xsd"');
    expect(readFileSync(path.join(dir, 'common.xsd'), 'utf8')).toContain('schemaLocation="base.xsd"');
    const spec = readFileSync(path.join(dir, 'orders.spec'), 'utf8');
    // Typed from the fetched schemas, redefine included; the contract names the copy beside it (coverage reads it).
    expect(spec).toContain('# Imported by accord from svc.wsdl');
    expect(spec).toContain('<total>(decimal)</total>');
    expect(spec).toContain('And type code (string maxLength=8)');
    expect(spec).not.toContain('(anything)');
    expect(loadContract(path.join(dir, 'orders.spec')).scenarios.map((x) => x.name)).toEqual(['getOrder']);
    // The files written are a whole local set: importing them again gives the same contract.
    const again = await accord('import', 'wsdl', 'svc.wsdl', '-o', 'again.spec');
    expect(again.code).toBe(0);
    expect(readFileSync(path.join(dir, 'again.spec'), 'utf8')).toBe(spec);
    // Run again: the same files are there with the same content, so nothing of the user's is at stake (the contract needs --force).
    const twice = await accord('import', 'wsdl', `${base}/orders/svc?wsdl`, '-o', 'orders.spec', '--force');
    expect(twice.err).toBe('');
    expect(twice.code).toBe(0);
  } finally {
    await real.close();
  }
});

test('an import from another origin is an error naming it, where it was looked for and how to fix it; --allow-origin fetches it, --allow-unresolved accepts (anything) with a warning per node', async () => {
  const other = await site({
    '/o.xsd': `<xs:schema xmlns:xs="${XS}" xmlns:c="urn:accord:common" targetNamespace="${NS}" elementFormDefault="qualified"><xs:complexType name="x"/>${ELEMENTS.replace(/c:order/, 'xs:string')}</xs:schema>`,
  });
  const real = await site({ '/svc?wsdl': wsdl({ schemaImports: `<xsd:import namespace="${NS}" schemaLocation="${other.url}/o.xsd"/>` }) });
  try {
    const url = `${real.url}/svc?wsdl`;
    const r = await accord('import', 'wsdl', url, '-o', 'svc.spec');
    expect(r.code).toBe(2);
    expect(r.out).toBe('');
    expect(r.err).toContain(`accord import wsdl: ${url} can only be imported in part; nothing written:`);
    expect(r.err).toContain(
      `svc.wsdl:1: import ${other.url}/o.xsd not fetched: another origin than the WSDL's (${other.url}): not fetched unless allowed with --allow-origin ${other.url}`,
    );
    expect(r.err).toMatch(/--allow-unresolved/);
    expect(readdirSync(dir)).toEqual([]);
    expect(other.asked).toEqual([]);

    const allowed = await accord('import', 'wsdl', url, '-o', 'svc.spec', '--allow-origin', other.url);
    expect(allowed.err).toBe('');
    expect(allowed.code).toBe(0);
    expect(other.asked).toEqual(['/o.xsd']);
    expect(readdirSync(dir).sort()).toEqual(['o.xsd', 'svc.spec', 'svc.wsdl']);
    expect(readFileSync(path.join(dir, 'svc.spec'), 'utf8')).not.toContain('(anything)');

    rmSync(dir, { recursive: true });
    dir = mkdtempSync(path.join(tmpdir(), 'accord-import-url-'));
    const accepted = await accord('import', 'wsdl', url, '-o', 'svc.spec', '--allow-unresolved');
    expect(accepted.code).toBe(0);
    expect(accepted.err).toMatch(/^accord import wsdl: warning: svc\.wsdl:1: import http:\/\/127\.0\.0\.1:\d+\/o\.xsd not fetched: another origin/m);
    // One warning line per node written (anything): the request and the response element.
    const warnings = accepted.err.split('\n').filter((l) => /warning: svc\.wsdl: node .* is \(anything\), accepting any content/.test(l));
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toMatch(/node tns:getOrder is \(anything\), accepting any content: element \{urn:accord:orders\}getOrder not found$/);
    expect(readFileSync(path.join(dir, 'svc.spec'), 'utf8')).toContain('(anything)');
  } finally {
    await Promise.all([real.close(), other.close()]);
  }
});

test('an import that answers 404, or is not XML, is an error naming it; the WSDL itself not there is an error too', async () => {
  const real = await site({
    '/svc?wsdl': wsdl({ schemaImports: `<xsd:import namespace="${NS}" schemaLocation="?xsd=1"/><xsd:import namespace="urn:b" schemaLocation="?xsd=2"/>` }),
    '/svc?xsd=2': 'not xml at all',
  });
  try {
    const r = await accord('import', 'wsdl', `${real.url}/svc?wsdl`);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/^ {2}svc\.wsdl:1: import \?xsd=1 not fetched \(http:\/\/127\.0\.0\.1:\d+\/svc\?xsd=1\): http:\/\/127\.0\.0\.1:\d+\/svc\?xsd=1 answered 404$/m);
    expect(r.err).toMatch(/^ {2}svc\.wsdl:1: import \?xsd=2 not fetched \(http:\/\/127\.0\.0\.1:\d+\/svc\?xsd=2\): not XML/m);
    expect(readdirSync(dir)).toEqual([]);
    const none = await accord('import', 'wsdl', `${real.url}/nothing?wsdl`);
    expect(none.code).toBe(2);
    expect(none.err).toMatch(/^accord import wsdl: http:\/\/127\.0\.0\.1:\d+\/nothing\?wsdl answered 404$/m);
  } finally {
    await real.close();
  }
});

test('only http and https; a URL with credentials is refused without echoing them; --header goes to the WSDL origin only', async () => {
  for (const url of ['ftp://127.0.0.1/x?wsdl', 'file:///etc/passwd']) {
    const r = await accord('import', 'wsdl', url);
    expect(r.code).toBe(2);
  }
  const secret = await accord('import', 'wsdl', 'http://user:s3cret@127.0.0.1:1/svc?wsdl');
  expect(secret.code).toBe(2);
  expect(secret.err).not.toContain('s3cret');
  const other = await site({
    '/o.xsd': `<xs:schema xmlns:xs="${XS}" targetNamespace="${NS}" elementFormDefault="qualified">${ELEMENTS.replace(/c:order/, 'xs:string')}</xs:schema>`,
  });
  const real = await site({ '/svc?wsdl': wsdl({ schemaImports: `<xsd:import namespace="${NS}" schemaLocation="${other.url}/o.xsd"/>` }) });
  try {
    const r = await accord('import', 'wsdl', `${real.url}/svc?wsdl`, '--allow-origin', other.url, '--header', 'Authorization: Basic dXNlcjpzM2NyZXQ=');
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(real.headers[0].authorization).toBe('Basic dXNlcjpzM2NyZXQ=');
    expect(other.headers[0].authorization).toBeUndefined();
  } finally {
    await Promise.all([real.close(), other.close()]);
  }
});

test('a redirect is followed within the origin, never to another; a redirect of the WSDL to another origin is an error', async () => {
  const other = await site({ '/x.xsd': `<xs:schema xmlns:xs="${XS}" targetNamespace="${NS}">${ELEMENTS.replace(/c:order/, 'xs:string')}</xs:schema>` });
  const real = await site({
    '/svc?wsdl': wsdl({ schemaImports: `<xsd:import namespace="${NS}" schemaLocation="?xsd=1"/>` }),
    '/svc?xsd=1': (_req, res) => {
      res.writeHead(302, { location: '/moved/types.xsd' });
      res.end();
    },
    '/moved/types.xsd': `<xs:schema xmlns:xs="${XS}" targetNamespace="${NS}" elementFormDefault="qualified">${ELEMENTS.replace(/c:order/, 'xs:string')}</xs:schema>`,
    '/away?wsdl': (_req, res) => {
      res.writeHead(301, { location: `${other.url}/x.xsd` });
      res.end();
    },
  });
  try {
    const ok = await accord('import', 'wsdl', `${real.url}/svc?wsdl`);
    expect(ok.err).toBe('');
    expect(ok.code).toBe(0);
    expect(readdirSync(dir).sort()).toEqual(['svc.spec', 'svc.wsdl', 'svc_xsd1.xsd']);
    const away = await accord('import', 'wsdl', `${real.url}/away?wsdl`);
    expect(away.code).toBe(2);
    expect(away.err).toContain(`redirects to another origin (${other.url}): not followed`);
    expect(other.asked).toEqual([]);
  } finally {
    await Promise.all([real.close(), other.close()]);
  }
});

test('file names are safe and inside the output folder; a user file of the same name is never replaced silently', async () => {
  const schema = `<xs:schema xmlns:xs="${XS}" targetNamespace="${NS}" elementFormDefault="qualified">${ELEMENTS.replace(/c:order/, 'xs:string')}</xs:schema>`;
  const real = await site({
    '/a/svc?wsdl': wsdl({ schemaImports: `<xsd:import namespace="${NS}" schemaLocation="../../../%2e%2e%2fevil.xsd?xsd=..%2F..%2Fx"/>` }),
    '/%2e%2e%2fevil.xsd?xsd=..%2F..%2Fx': schema,
  });
  try {
    const out = path.join(dir, 'out');
    const r = await accord('import', 'wsdl', `${real.url}/a/svc?wsdl`, '-o', 'out.spec');
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(readdirSync(dir).sort()).toEqual(['evil_xsd2F2Fx.xsd', 'out.spec', 'svc.wsdl']);
    expect(existsSync(out)).toBe(false);
    // A file of the user's with that name and other content: nothing written, exit 2; --force replaces it.
    rmSync(path.join(dir, 'out.spec'));
    writeFileSync(path.join(dir, 'svc.wsdl'), 'mine');
    const mine = await accord('import', 'wsdl', `${real.url}/a/svc?wsdl`, '-o', 'out.spec');
    expect(mine.code).toBe(2);
    expect(mine.err).toMatch(/svc\.wsdl exists with other content; the fetched svc\.wsdl would replace it: --force replaces it/);
    expect(readFileSync(path.join(dir, 'svc.wsdl'), 'utf8')).toBe('mine');
    expect(existsSync(path.join(dir, 'out.spec'))).toBe(false);
    // A symlink there is never written through.
    rmSync(path.join(dir, 'svc.wsdl'));
    writeFileSync(path.join(dir, 'target.txt'), 'kept');
    symlinkSync(path.join(dir, 'target.txt'), path.join(dir, 'svc.wsdl'));
    const link = await accord('import', 'wsdl', `${real.url}/a/svc?wsdl`, '-o', 'out.spec');
    expect(link.code).toBe(2);
    const forced = await accord('import', 'wsdl', `${real.url}/a/svc?wsdl`, '-o', 'out.spec', '--force');
    expect(forced.code).toBe(0);
    expect(readFileSync(path.join(dir, 'target.txt'), 'utf8')).toBe('kept');
    expect(readFileSync(path.join(dir, 'svc.wsdl'), 'utf8')).toContain('<definitions');
  } finally {
    await real.close();
  }
});

test('bounded: the count of documents, the bytes of one and of all, and the time for all', async () => {
  // ?xsd=N imports ?xsd=N+1, without end.
  const endless = await site(
    new Proxy({} as Record<string, Handler>, {
      get: (_t, k: string) => {
        const m = /^\/svc\?(?:wsdl|xsd=(\d+))$/.exec(k);
        if (!m) return undefined;
        const next = m[1] === undefined ? 1 : Number(m[1]) + 1;
        return (_req: IncomingMessage, res: ServerResponse) => {
          res.writeHead(200, { 'content-type': 'text/xml' });
          res.end(
            m[1] === undefined
              ? wsdl({ schemaImports: `<xsd:import namespace="urn:e1" schemaLocation="?xsd=1"/>` })
              : `<xs:schema xmlns:xs="${XS}" targetNamespace="urn:e${next}"><xs:import namespace="urn:e${next + 1}" schemaLocation="?xsd=${next}"/></xs:schema>`,
          );
        };
      },
    }),
  );
  // A schema that never ends, and one that never answers.
  const slow = await site({
    '/svc?wsdl': wsdl({ schemaImports: `<xsd:import namespace="${NS}" schemaLocation="?xsd=1"/>` }),
    '/svc?xsd=1': (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/xml' });
      res.write('<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema">');
      const pump = () => {
        if (res.destroyed) return;
        if (res.write(`<!-- ${'x'.repeat(64 * 1024)} -->`)) setImmediate(pump);
        else res.once('drain', pump);
      };
      pump();
    },
    '/hang?wsdl': wsdl({ schemaImports: `<xsd:import namespace="${NS}" schemaLocation="?xsd=9"/>` }),
    '/hang?xsd=9': () => undefined,
  });
  try {
    const r = await accord('import', 'wsdl', `${endless.url}/svc?wsdl`);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/^accord import wsdl: http:\/\/127\.0\.0\.1:\d+\/svc\?wsdl imports more than 100 documents$/m);
    expect(endless.asked.length).toBeLessThanOrEqual(100);
    expect(readdirSync(dir)).toEqual([]);

    const big = await fetchWsdlSet(`${slow.url}/svc?wsdl`, { limits: { documentBytes: 1024 * 1024 } });
    expect('files' in big ? big.notFetched : big).toEqual([
      expect.objectContaining({ location: '?xsd=1', reason: expect.stringMatching(/svc\?xsd=1 is longer than 1048576 bytes$/) }),
    ]);
    const all = await fetchWsdlSet(`${slow.url}/svc?wsdl`, { limits: { totalBytes: 512 * 1024 } });
    expect(all).toEqual({ why: expect.stringMatching(/and what it imports are more than 524288 bytes$/) });
    const started = Date.now();
    const late = await fetchWsdlSet(`${slow.url}/hang?wsdl`, { limits: { totalMs: 800 } });
    expect(Date.now() - started).toBeLessThan(5000);
    expect('files' in late ? late.notFetched : late).toEqual([expect.objectContaining({ reason: expect.stringMatching(/did not answer within/) })]);
  } finally {
    await Promise.all([endless.close(), slow.close()]);
  }
}, 30_000);

test('accord stub <WSDL URL> serves the WSDL fetched with its ?xsd=1; one it cannot fetch whole is refused unless --allow-unresolved', async () => {
  const schema = `<xs:schema xmlns:xs="${XS}" targetNamespace="${NS}" elementFormDefault="qualified">${ELEMENTS.replace(/c:order/, 'xs:string')}</xs:schema>`;
  const real = await site({
    '/svc?wsdl': wsdl({ schemaImports: `<xsd:import namespace="${NS}" schemaLocation="?xsd=1"/>` }),
    '/svc?xsd=1': schema,
    '/gone?wsdl': wsdl({ schemaImports: `<xsd:import namespace="${NS}" schemaLocation="?xsd=7"/>` }),
  });
  try {
    const stub = await startStubProcess(['--port', '0', `${real.url}/svc?wsdl`]);
    try {
      const ok = await request(`${stub.url}/orders`, {
        method: 'POST',
        headers: { 'content-type': 'text/xml; charset=utf-8', soapaction: '""' },
        body: `<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body><o:getOrder xmlns:o="${NS}"><o:id>7</o:id></o:getOrder></s:Body></s:Envelope>`,
      });
      expect(ok.statusCode).toBe(200);
      expect(await ok.body.text()).toMatch(/getOrderResponse/);
      // Typed by the fetched schema: a request that does not fit it is not answered as if it did.
      const bad = await request(`${stub.url}/orders`, {
        method: 'POST',
        headers: { 'content-type': 'text/xml; charset=utf-8', soapaction: '""' },
        body: `<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body><o:getOrder xmlns:o="${NS}"><o:id>seven</o:id></o:getOrder></s:Body></s:Envelope>`,
      });
      expect(bad.statusCode).not.toBe(200);
      await bad.body.text();
    } finally {
      stub.child.kill('SIGTERM');
      await stub.exited;
    }
    expect(stub.stderr()).not.toMatch(/not loaded|not fetched/);
    const refused = await runCli(['stub', '--port', '0', `${real.url}/gone?wsdl`]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/^accord stub: http:\/\/127\.0\.0\.1:\d+\/gone\?wsdl can only be imported in part; not served:\n {2}gone\.wsdl:1: import \?xsd=7 not fetched/);
  } finally {
    await real.close();
  }
}, 60_000);
