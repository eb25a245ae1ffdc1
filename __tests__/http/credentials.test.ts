import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseContract, testCases } from '../../src/contract/load';
import { formatCaseReport, runCase } from '../../src/runner/run-case';
import { startStub } from '../../src/stub';
import { startServer } from '../helpers/servers';

/**
 * A credential header whose value does not match the contract: the stub's 400 report (sent back,
 * kept in the journal, printed by the Jest matchers) and the runner's failure report say so without
 * printing the value.
 */
const SPEC = `Feature: f
  Scenario: list pets
    When GET /pets
    And request-header Authorization Bearer good-token
    Then status 200
    And response-header Set-Cookie session=(string)
`;

test('the stub reports a wrong Authorization without showing it', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'accord-credentials-'));
  writeFileSync(path.join(dir, 'pets.spec'), SPEC);
  const stub = await startStub({ contracts: dir, log: () => undefined });
  try {
    const res = await fetch(`${stub.url}/pets`, { headers: { authorization: 'Basic c2VjcmV0LXVzZXI6c2VjcmV0LXBhc3M=' } });
    const text = await res.text();
    expect(res.status).toBe(400);
    expect(text).toContain('REQUEST.HEADER Authorization: expected "Bearer good-token", found *** (the value of Authorization is not shown)');
    expect(text).not.toContain('c2VjcmV0');
    expect(stub.calls()[0].report).not.toContain('c2VjcmV0');
  } finally {
    await stub.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test("the runner's report of a wrong Set-Cookie does not show the cookie", async () => {
  const server = await startServer(() => ({ body: '', headers: { 'set-cookie': 'sid=Cookie-Value-42' } }));
  try {
    const [tc] = testCases(parseContract(SPEC, 'pets.spec'));
    const r = await runCase(tc, { baseUrl: server.url });
    const report = formatCaseReport(r, server.url);
    expect(r.passed).toBe(false);
    expect(report).toContain('RESPONSE.HEADER Set-Cookie: expected "session=(string)", found *** (the value of Set-Cookie is not shown)');
    expect(report).toContain('authorization: ***');
    expect(report).not.toContain('Cookie-Value-42');
    expect(report).not.toContain('good-token');
  } finally {
    await server.close();
  }
});
