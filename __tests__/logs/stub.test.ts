import { ParsedBody } from '../../src/http/body';
import { matchRequest, splitPath } from '../../src/http/match-request';
import { matchResponse } from '../../src/http/match-response';
import { checkExchange, toHttpRequest } from '../../src/logs';
import { formatMismatch } from '../../src/pattern/mismatch';
import { startStub } from '../../src/stub';
import { fixture, importAndParse } from './helpers';

/**
 * The contract made from a log, served by accord's stub: each logged request
 * sent to the stub is answered as the first scenario taking it promises (the
 * stub's rule). For every call logged as a success that is the logged status
 * with a body matching the contract. A logged fault whose request looks like a
 * successful one is answered as the success: no typed request can tell them apart.
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
        const scenario = r.parsed.scenarios.find((s) => {
          const m = matchRequest(s, req, parsedBody, splitPath(req.path));
          return m.endpoint && m.mismatches.length === 0;
        })!;
        const logged = checkExchange(r.parsed, x).scenario!;
        if (logged.response.status < 300) expect(scenario).toBe(logged);
        const url = `${stub.url}${req.path}${req.query.length ? `?${new URLSearchParams(req.query)}` : ''}`;
        const headers: Record<string, string> = { ...req.headers };
        if (x.request.format === 'xml') headers['content-type'] = req.body.includes('http://www.w3.org/2003/05/soap-envelope') ? 'application/soap+xml; charset=utf-8' : 'text/xml; charset=utf-8';
        else if (x.request.format === 'json') headers['content-type'] = 'application/json';
        const res = await fetch(url, { method: req.method, headers, body: req.method === 'GET' ? undefined : req.body });
        const body = await res.text();
        const mismatches = matchResponse(scenario, { status: res.status, headers: Object.fromEntries(res.headers), body });
        if (mismatches.length) failures.push(`${x.request.at.file}:${x.request.at.line} (${scenario.name}): ${mismatches.map(formatMismatch).join('; ')}`);
      }
      expect(failures).toEqual([]);
    } finally {
      await stub.close();
    }
  });
});
