import { parseContract, testCases } from '../../src/contract/load';
import { OAuth2Tokens } from '../../src/http/oauth2';
import { formatCaseReport, runCase } from '../../src/runner/run-case';
import { resolveRunnerConfig } from '../../src/runner/config';
import { startServer, type Running } from '../helpers/servers';

/**
 * An OAuth2 token request that fails names its token URL, but never the credentials a URL may
 * carry: a `client_secret=` (or any credential-named) query value, a user name and password, or
 * the client secret itself echoed anywhere in the reason. A real token endpoint on 127.0.0.1.
 */
let idp: Running;
beforeAll(async () => {
  idp = await startServer(() => ({ status: 401, type: 'application/json', body: '{"error": "invalid_client"}' }));
});
afterAll(() => idp.close());

test('a refused token request names the URL without its query secrets or user name', async () => {
  const url = `${idp.url}/oauth/token?client_secret=LITERAL-s3cret&tenant=acme`;
  const tokens = new OAuth2Tokens({ tokenUrl: url, clientId: 'app', clientSecret: 'cs-Shown-91' }, { timeoutMs: 5_000 });
  const message = await tokens.token().then(
    () => 'no failure',
    (e: Error) => e.message,
  );
  expect(message).toBe(`OAuth2 token request to ${idp.url}/oauth/token?client_secret=***&tenant=acme failed: status 401 (invalid_client)`);
  const withUser = new OAuth2Tokens({ tokenUrl: `http://svc:pw-Shown-4@127.0.0.1:9/token`, clientId: 'app', clientSecret: 'cs-Shown-91' }, { timeoutMs: 5_000 });
  const refused = await withUser.token().then(
    () => 'no failure',
    (e: Error) => e.message,
  );
  expect(refused).toMatch(/^OAuth2 token request to http:\/\/\*\*\*@127\.0\.0\.1:9\/token failed: /);
  expect(refused).not.toContain('pw-Shown-4');
});

test('a token URL the settings refuse is quoted without its credentials', () => {
  const cfg = resolveRunnerConfig(
    { baseUrl: 'http://127.0.0.1:1', auth: { type: 'oauth2', tokenUrl: 'ftp://svc:pw-Shown-5@idp/token?client_secret=q-Shown-6', clientId: 'c', clientSecret: { env: 'S' } } },
    { S: 'ssss' },
  );
  const text = cfg.problems.join('\n');
  expect(text).toContain('tokenUrl must be an http:// or https:// URL');
  expect(text).not.toContain('pw-Shown-5');
  expect(text).not.toContain('q-Shown-6');
});

test("a failure's heading names the base URL without a user name, password or credential query values", async () => {
  const contract = parseContract('Feature: P\n\n  Scenario: Get\n    When GET /pets\n    Then status 200\n', 'p.spec');
  const base = `http://svc:pw-Base-1@${new URL(idp.url).host}/?api_key=k-Base-2`;
  const r = await runCase(testCases(contract)[0], { baseUrl: base, timeoutMs: 5_000 });
  const report = formatCaseReport(r, base);
  expect(report).toContain(`http://***@${new URL(idp.url).host}/?api_key=***`);
  expect(report).not.toContain('pw-Base-1');
  expect(report).not.toContain('k-Base-2');
});
