import { ParsedBody } from '../../src/http/body';
import { matchRequest, splitPath } from '../../src/http/match-request';
import { matchResponse } from '../../src/http/match-response';
import { checkExchange, toHttpRequest } from '../../src/logs';
import { formatMismatch } from '../../src/pattern/mismatch';
import { startStub } from '../../src/stub';
import { fixture, importAndParse } from './helpers';

/**
 * The contract made from a log, served by accord's stub: each logged request
 * sent to the stub gets an answer that one of the scenarios taking that
 * request promises, status and body. Every call logged as a success gets the
 * logged status; with --examples every call does, faults included (the row
 * pins the request). Without Examples a logged fault whose request looks like a
 * successful one may be answered as the success: no typed request tells them apart.
 */
const LOGS = ['cxf-interceptors.log', 'cxf-logging-feature.log', 'spring-ws.log', 'pretty-envelopes.log', 'recording.har'];

describe.each(LOGS)('a stub of the contract made from %s', (name) => {
  it.each([false, true])('answers every logged request (examples: %s)', async (examples) => {
    const r = await importAndParse([fixture(name)], { examples });
    const stub = await startStub({ contracts: r.parsed, log: () => undefined });
    try {
      const failures: string[] = [];
      for (const x of r.exchanges) {
        const req = toHttpRequest(x.request);
        const parsedBody = new ParsedBody(req.body);
        const taking = r.parsed.scenarios.filter((s) => {
          const m = matchRequest(s, req, parsedBody, splitPath(req.path));
          return m.endpoint && m.mismatches.length === 0;
        });
        const logged = checkExchange(r.parsed, x).scenario!;
        const url = `${stub.url}${req.path}${req.query.length ? `?${new URLSearchParams(req.query)}` : ''}`;
        const headers: Record<string, string> = { ...req.headers };
        if (x.request.format === 'xml') headers['content-type'] = req.body.includes('http://www.w3.org/2003/05/soap-envelope') ? 'application/soap+xml; charset=utf-8' : 'text/xml; charset=utf-8';
        else if (x.request.format === 'json') headers['content-type'] = 'application/json';
        const res = await fetch(url, { method: req.method, headers, body: req.method === 'GET' ? undefined : req.body });
        const body = await res.text();
        const answer = { status: res.status, headers: Object.fromEntries(res.headers), body };
        const promised = taking.find((s) => matchResponse(s, answer).length === 0);
        if (!promised) {
          const why = taking.map((s) => `${s.name}: ${matchResponse(s, answer).map(formatMismatch).join('; ')}`).join(' | ');
          failures.push(`${x.request.at.file}:${x.request.at.line}: ${why}`);
        } else if ((logged.response.status < 300 || examples) && res.status !== logged.response.status) {
          // With Examples every logged call, faults too, is pinned to its own scenario.
          failures.push(`${x.request.at.file}:${x.request.at.line}: logged ${logged.response.status}, the stub answered ${res.status}`);
        }
      }
      expect(failures).toEqual([]);
    } finally {
      await stub.close();
    }
  });
});
