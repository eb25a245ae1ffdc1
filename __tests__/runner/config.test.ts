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
      'unknown option "baseURL" in testEnvironmentOptions.accord (did you mean "baseUrl"?); the options are baseUrl, timeoutMs, seed, negative, coverageThreshold, coverageFile, wsdl',
      'unknown option "timeout" in testEnvironmentOptions.accord (did you mean "timeoutMs"?); the options are baseUrl, timeoutMs, seed, negative, coverageThreshold, coverageFile, wsdl',
      'unknown option "colour" in testEnvironmentOptions.accord; the options are baseUrl, timeoutMs, seed, negative, coverageThreshold, coverageFile, wsdl',
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
