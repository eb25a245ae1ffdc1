import { resolveRunnerConfig } from '../../src/runner/config';
import { closest } from '../../src/suggest';

describe('runner settings', () => {
  it('takes the Jest config, with ACCORD_* variables winning', () => {
    expect(resolveRunnerConfig({ baseUrl: 'http://a:1', timeoutMs: 500, seed: 3 }, {})).toEqual({ baseUrl: 'http://a:1', timeoutMs: 500, seed: 3, negative: false, problems: [] });
    expect(resolveRunnerConfig({ baseUrl: 'http://a:1', timeoutMs: 500 }, { ACCORD_BASE_URL: 'https://b', ACCORD_TIMEOUT_MS: '20', ACCORD_SEED: '7' })).toEqual({
      baseUrl: 'https://b',
      timeoutMs: 20,
      seed: 7,
      negative: false,
      problems: [],
    });
    expect(resolveRunnerConfig(undefined, {})).toEqual({ baseUrl: undefined, timeoutMs: 10_000, seed: 0, negative: false, problems: [] });
    // An empty variable is unset (a CI template that leaves it blank).
    expect(resolveRunnerConfig({ baseUrl: 'http://a:1' }, { ACCORD_BASE_URL: '' }).baseUrl).toBe('http://a:1');
  });

  it('negative: true in the Jest config or ACCORD_NEGATIVE=1; anything else is a problem', () => {
    expect(resolveRunnerConfig({ negative: true }, {}).negative).toBe(true);
    expect(resolveRunnerConfig({ negative: true }, { ACCORD_NEGATIVE: '0' }).negative).toBe(false);
    expect(resolveRunnerConfig(undefined, { ACCORD_NEGATIVE: '1' }).negative).toBe(true);
    expect(resolveRunnerConfig(undefined, { ACCORD_NEGATIVE: 'yes' }).problems).toEqual(['ACCORD_NEGATIVE must be true or false (1 or 0), found "yes"']);
  });

  it('words every problem instead of falling back silently', () => {
    const r = resolveRunnerConfig({ baseURL: 'http://a:1', timeout: 5, colour: true }, { ACCORD_BASE_URL: 'localhost:8080', ACCORD_TIMEOUT_MS: '-1', ACCORD_SEED: '1.5' });
    expect(r.problems).toEqual([
      'unknown option "baseURL" in testEnvironmentOptions.accord (did you mean "baseUrl"?); the options are baseUrl, timeoutMs, seed, negative, coverageThreshold, coverageFile, report, wsdl, auth, headers, tls, environment, environments, wsSecurity, addressing, mtom, states',
      'unknown option "timeout" in testEnvironmentOptions.accord (did you mean "timeoutMs"?); the options are baseUrl, timeoutMs, seed, negative, coverageThreshold, coverageFile, report, wsdl, auth, headers, tls, environment, environments, wsSecurity, addressing, mtom, states',
      'unknown option "colour" in testEnvironmentOptions.accord; the options are baseUrl, timeoutMs, seed, negative, coverageThreshold, coverageFile, report, wsdl, auth, headers, tls, environment, environments, wsSecurity, addressing, mtom, states',
      'ACCORD_BASE_URL must be an http:// or https:// URL such as http://127.0.0.1:8080, found "localhost:8080"',
      'ACCORD_TIMEOUT_MS must be a number of milliseconds above 0, found "-1"',
      'ACCORD_SEED must be a whole number, found "1.5"',
    ]);
    expect(r).toMatchObject({ baseUrl: undefined, timeoutMs: 10_000, seed: 0 });
    expect(resolveRunnerConfig('http://a:1', {}).problems).toEqual([
      'testEnvironmentOptions.accord must be an object such as { baseUrl: \'http://127.0.0.1:8080\' }, found "http://a:1"',
    ]);
    expect(resolveRunnerConfig({ baseUrl: 8080 }, {}).problems).toEqual([
      'testEnvironmentOptions.accord.baseUrl must be an http:// or https:// URL such as http://127.0.0.1:8080, found 8080',
    ]);
    expect(resolveRunnerConfig({ baseUrl: 'ftp://a' }, {}).problems).toHaveLength(1);
  });
});

describe('did-you-mean', () => {
  it('suggests a name in another case or up to two edits away, and nothing further', () => {
    expect(closest('baseURL', ['baseUrl', 'timeoutMs', 'seed'])).toBe('baseUrl');
    expect(closest('timeoutMS', ['baseUrl', 'timeoutMs', 'seed'])).toBe('timeoutMs');
    expect(closest('respose-body', ['request-body', 'response-body'])).toBe('response-body');
    expect(closest('sed', ['baseUrl', 'timeoutMs', 'seed'])).toBe('seed');
    expect(closest('colour', ['baseUrl', 'timeoutMs', 'seed'])).toBeUndefined();
  });
});

describe('credentials, certificates and environments in the settings', () => {
  const W = 'testEnvironmentOptions.accord';

  it('reads secrets only from the environment variables named, and remembers them to hide them', () => {
    const r = resolveRunnerConfig(
      { auth: { type: 'basic', username: { env: 'PET_USER' }, password: { env: 'PET_PASSWORD' } }, headers: { 'X-Api-Key': { env: 'PET_KEY' }, 'X-Tenant': 'acme' } },
      { PET_USER: 'svc-user', PET_PASSWORD: 'pw-123456', PET_KEY: 'key-123456' },
    );
    expect(r.problems).toEqual([]);
    expect(r.auth).toEqual({ type: 'basic', username: 'svc-user', password: 'pw-123456' });
    expect(r.headers).toEqual({ 'x-api-key': 'key-123456', 'x-tenant': 'acme' });
    expect(r.secretHeaders).toEqual(['x-api-key']);
    expect(r.secrets).toEqual(expect.arrayContaining(['svc-user', 'pw-123456', 'key-123456', Buffer.from('svc-user:pw-123456').toString('base64')]));
  });

  it('WS-Security: a password or key passphrase only by reference, and hidden like the other secrets', () => {
    const literal = resolveRunnerConfig({ wsSecurity: { username: 'svc', password: 'hunter2-literal', use: ['PasswordDigest'] } }, {});
    expect(literal.problems).toEqual([`${W}.wsSecurity.password must name the environment variable that holds it, such as { env: 'SERVICE_PASSWORD' }, not be the secret itself`]);
    const r = resolveRunnerConfig({ wsSecurity: { username: 'svc', password: { env: 'SVC_PASSWORD' }, use: ['PasswordDigest'] } }, { SVC_PASSWORD: 'pw-ws-123456' });
    expect(r.problems).toEqual([]);
    expect(r.secrets).toEqual(['pw-ws-123456']);
  });

  it('refuses a secret written in the configuration, pointing at the reference to write instead', () => {
    const r = resolveRunnerConfig(
      {
        auth: { type: 'bearer', token: '${PET_TOKEN}' },
        headers: { Authorization: 'Basic abc', 'X-Api-Key': 'k-1' },
        tls: { pfx: 'a.p12', passphrase: 'secret' },
      },
      {},
      __dirname,
    );
    expect(r.problems).toEqual([
      `${W}.auth.token must name the environment variable that holds the token, such as { env: 'PET_TOKEN' }, not be the token itself: a secret written in the configuration ends up in git and in logs`,
      `${W}.tls.pfx: no such file: a.p12`,
      `${W}.tls.passphrase must name the environment variable that holds the passphrase, such as { env: 'PET_API_PASSPHRASE' }, not be the passphrase itself: a secret written in the configuration ends up in git and in logs`,
      `${W}.headers["Authorization"] must name the environment variable that holds the value, such as { env: 'AUTHORIZATION' }, not be the value itself: a secret written in the configuration ends up in git and in logs`,
      `${W}.headers["X-Api-Key"] must name the environment variable that holds the value, such as { env: 'X_API_KEY' }, not be the value itself: a secret written in the configuration ends up in git and in logs`,
    ]);
  });

  it('checks every nested block with a did-you-mean', () => {
    const r = resolveRunnerConfig(
      {
        auth: { type: 'oauth', tokenUrl: 'x' },
        tls: { certificate: 'c.pem' },
        environments: { staging: { baseURL: 'http://a:1', auth: { type: 'bearer', tokn: { env: 'T' } } } },
      },
      { ACCORD_ENV: 'staging', T: 'tttt' },
    );
    expect(r.problems).toEqual([
      `unknown option "baseURL" in ${W}.environments.staging (did you mean "baseUrl"?); an environment sets baseUrl, auth, tls, headers`,
      `${W}.auth.type must be one of basic, bearer, oauth2 (did you mean "oauth2"?), found "oauth"`,
      `unknown option "certificate" in ${W}.tls; tls takes cert, key, pfx, passphrase, ca`,
      `unknown option "tokn" in ${W}.environments.staging.auth (did you mean "token"?); bearer auth takes type, token`,
      `${W}.environments.staging.auth.token is missing: give the environment variable that holds the token, such as { env: 'PET_API_TOKEN' }`,
    ]);
  });

  it("an environment's base URL, auth and tls replace the top-level ones, its headers merge; ACCORD_BASE_URL still wins", () => {
    const options = {
      baseUrl: 'http://top:1',
      auth: { type: 'bearer', token: { env: 'TOP_TOKEN' } },
      headers: { 'X-Tenant': 'top', 'X-Trace': 'on' },
      environments: { staging: { baseUrl: 'http://staging:1', auth: { type: 'bearer', token: { env: 'STAGING_TOKEN' } }, headers: { 'X-Tenant': 'staging' } } },
    };
    const r = resolveRunnerConfig(options, { ACCORD_ENV: 'staging', TOP_TOKEN: 'top-token', STAGING_TOKEN: 'staging-token' });
    expect(r).toMatchObject({
      problems: [],
      environment: 'staging',
      baseUrl: 'http://staging:1',
      auth: { type: 'bearer', token: 'staging-token' },
      headers: { 'x-tenant': 'staging', 'x-trace': 'on' },
    });
    expect(resolveRunnerConfig(options, { ACCORD_ENV: 'staging', ACCORD_BASE_URL: 'http://ci:1', TOP_TOKEN: 't', STAGING_TOKEN: 's' }).baseUrl).toBe('http://ci:1');
    // Without ACCORD_ENV: the top level; a variable of another environment need not be set.
    expect(resolveRunnerConfig(options, { TOP_TOKEN: 'top-token' })).toMatchObject({ problems: [], baseUrl: 'http://top:1', auth: { token: 'top-token' } });
    expect(resolveRunnerConfig({ ...options, environment: 'staging' }, { TOP_TOKEN: 't', STAGING_TOKEN: 's' }).baseUrl).toBe('http://staging:1');
    expect(resolveRunnerConfig({}, { ACCORD_ENV: 'qa' }).problems).toEqual([`ACCORD_ENV chooses the environment "qa", but ${W}.environments defines none`]);
  });

  it('OAuth2: the token URL must be http(s) without credentials in it', () => {
    const auth = { type: 'oauth2', tokenUrl: 'https://id:pw@login.example.com/token', clientId: 'c', clientSecret: { env: 'S' }, clientAuth: 'post' };
    expect(resolveRunnerConfig({ auth }, { S: 'ssss' }).problems).toEqual([
      `${W}.auth.tokenUrl must not hold a user name or password: give clientId and clientSecret`,
      `${W}.auth.clientAuth must be "basic" (the client id and secret in an Authorization header) or "body" (in the form), found "post"`,
    ]);
    expect(resolveRunnerConfig({ auth: { ...auth, tokenUrl: 'https://login.example.com/token', clientAuth: 'body', scope: 'a b' } }, { S: 'ssss' }).auth).toEqual({
      type: 'oauth2',
      tokenUrl: 'https://login.example.com/token',
      clientId: 'c',
      clientSecret: 'ssss',
      scope: 'a b',
      audience: undefined,
      clientAuth: 'body',
    });
  });
});
