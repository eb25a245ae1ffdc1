import { parseContract } from '../../src/contract/load';
import { matchXml } from '../../src/pattern/match/index';
import { formatMismatch } from '../../src/pattern/match/mismatch';
import { importWsdl } from '../../src/wsdl';
import { parseXml } from '../../src/xml/parse';
import path from 'node:path';
import { WSDL_FIXTURES } from './fixtures';
import { failures, host, runAll } from '../helpers/soap-host';

/*
 * XML structure against an independent SOAP implementation (the `soap` package): a choice in request and
 * response, wildcards (a required strict one, lax extension elements in the response) and an element of an
 * abstract type sent with xsi:type of a derived type (issue 13 classes 2, 3 and 7). Before xsi:type was
 * understood, the Circle's <radius> was reported as an unexpected node and these tests failed.
 */
const file = path.join(WSDL_FIXTURES, 'structure', 'catalog.wsdl');
const NS = 'urn:accord:catalog';
const received: Record<string, unknown>[] = [];

const service = {
  CatalogService: {
    CatalogPort: {
      find: (args: Record<string, unknown>) => {
        received.push(args);
        const found = args.byId !== undefined;
        return {
          ...(found ? { item: `item ${String(args.byId)}` } : { notFound: String(args.byName) }),
          shape: found
            ? { attributes: { xsi_type: { type: 'Circle', xmlns: NS } }, label: 'round', radius: 1.5 }
            : { attributes: { xsi_type: { type: 'Square', xmlns: NS } }, label: 'square', side: 2 },
          // An extension element of another namespace, where the response's ##other wildcard is.
          'x:audit': { attributes: { 'xmlns:x': 'urn:audit' }, 'x:by': 'soap' },
        };
      },
    },
  },
};

describe('a soap-package service with choice, wildcards and xsi:type derived types', () => {
  const contract = parseContract(importWsdl(file).text, 'catalog.spec');
  const find = contract.scenarios.find((s) => s.name === 'find')!;

  test("accord's generated test passes against it: its request is taken, its response accepted", async () => {
    const hosted = await host(file, '/catalog', service);
    try {
      const results = await runAll(file, hosted);
      expect(failures(results, hosted.url)).toEqual([]);
      expect(results).toHaveLength(1);
      const body = hosted.requests[0].body;
      // One alternative of the choice, and the required strict wildcard filled with the element the schema declares.
      expect(Number(body.includes('<tns:byId>')) + Number(body.includes('<tns:byName>'))).toBe(1);
      expect(body).toMatch(/<ns\d+:trace>[^<]*<\/ns\d+:trace>|<[\w]+:trace>[^<]*<\/[\w]+:trace>/);
      expect(received).toHaveLength(1);
    } finally {
      await hosted.close();
    }
  });

  test('both of its answers (each alternative, each derived type) are accepted by the imported contract', async () => {
    const hosted = await host(file, '/catalog', service);
    try {
      const answers: string[] = [];
      for (const pick of ['<c:byId>7</c:byId>', '<c:byName>pen</c:byName>']) {
        const res = await fetch(`${hosted.url}/catalog`, {
          method: 'POST',
          headers: { 'content-type': 'text/xml; charset=utf-8', soapaction: '"urn:accord:catalog/find"' },
          body: `<soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/" xmlns:c="${NS}"><soapenv:Body><c:find>${pick}<e:trace xmlns:e="urn:accord:catalog:ext">t</e:trace></c:find></soapenv:Body></soapenv:Envelope>`,
        });
        expect(res.status).toBe(200);
        answers.push(await res.text());
      }
      expect(answers[0]).toMatch(/xsi:type="[\w]+:Circle"/);
      expect(answers[1]).toMatch(/xsi:type="[\w]+:Square"/);
      expect(answers[1]).toContain('<x:audit');
      for (const a of answers) expect(matchXml(find.response.body!, parseXml(a), find.scope).map(formatMismatch)).toEqual([]);
      // The same answer without its xsi:type names no derived type of the abstract Shape: refused, naming the place.
      const bare = answers[0].replace(/ xsi:type="[\w]+:Circle"/, '');
      expect(matchXml(find.response.body!, parseXml(bare), find.scope).map(formatMismatch).join('\n')).toMatch(/findResponse\/shape: expected xsi:type naming a type derived/);
    } finally {
      await hosted.close();
    }
  });
});
