import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseContract, testCases } from '../../src/contract/load';
import { runCase, formatCaseReport, type CaseResult } from '../../src/runner/run-case';
import { importWsdl, type ImportOptions } from '../../src/wsdl';

/** An independent SOAP implementation (the `soap` package) hosting a service from a WSDL, on 127.0.0.1. */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const soap = require('soap') as typeof import('soap');

export interface Hosted {
  url: string;
  requests: { headers: Record<string, string | string[] | undefined>; body: string }[];
  close(): Promise<void>;
}

/** `soapHeader` gives the response's SOAP Header entries for a method (the package's own hook). */
export async function host(wsdlFile: string, path: string, services: import('soap').IServices, soapHeader?: (method: string) => string): Promise<Hosted> {
  const requests: Hosted['requests'] = [];
  const server: Server = createServer((_req, res) => {
    res.statusCode = 404;
    res.end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  // One-way operations answered as WS-I Basic Profile, JAX-WS, CXF and .NET do (the package's default is 200 with an envelope).
  // uri: the base for the WSDL's relative imports.
  const listening = soap.listen(server, { path, services, xml: readFileSync(wsdlFile, 'utf8'), uri: wsdlFile, oneWay: { responseCode: 202, emptyBody: true } });
  if (soapHeader) listening.addSoapHeader((method: string) => soapHeader(method));

  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // The package reads imported schemas asynchronously and answers nothing until then, with no event
  // to await: its ?wsdl page appears when it is ready.
  for (let i = 0; i < 200 && (await fetch(`${url}${path}?wsdl`)).status !== 200; i++) await new Promise((r) => setTimeout(r, 10));
  return {
    url,
    requests,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/** Every test case of the contract imported from `wsdlFile`, run against the hosted service. */
export async function runAll(wsdlFile: string, hosted: Hosted, options: ImportOptions = {}): Promise<CaseResult[]> {
  const contract = parseContract(importWsdl(wsdlFile, options).text, wsdlFile);
  const results: CaseResult[] = [];
  // Fault scenarios without Examples rows are declared and not run, as the runner does.
  for (const tc of testCases(contract).filter((t) => t.notRun === undefined)) {
    const r = await runCase(tc, { baseUrl: hosted.url });
    // What went over the wire, to check against the SOAP rules.
    if (r.request) hosted.requests.push({ headers: r.request.headers, body: r.request.body });
    results.push(r);
  }
  return results;
}

export function failures(results: CaseResult[], url: string): string[] {
  return results.filter((r) => !r.passed).map((r) => formatCaseReport(r, url));
}
