import { parseContract, testCases } from '../../src/contract/load';
import { formatCaseReport, runCase } from '../../src/runner/run-case';
import { accord, contract, ROOT, TempRepo } from '../compat/git-repo';
import { startServer } from '../helpers/servers';

/** Mistakes of the daily loop outside the contract's own syntax, each said for what it is (issue 23, point 4). */

describe('accord import wsdl given something that is not a WSDL', () => {
  it("a .spec contract: says it is a contract, exit 2 (it printed the XML parser's run-together excerpt)", () => {
    const r = accord(ROOT, 'import', 'wsdl', 'contracts/soap/api_pet_v1.spec', '--output', '-');
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      'accord import wsdl: contracts/soap/api_pet_v1.spec: not a WSDL: it looks like a .spec contract (Feature: Pet lookup over SOAP); a contract is run with `accord test` or jest --preset accord-contracts; import wsdl reads a WSDL 1.1 <definitions> or WSDL 2.0 <description> file\n',
    );
  });

  it('a file that is not XML: says so, with its start', () => {
    const r = accord(ROOT, 'import', 'wsdl', 'package.json', '--output', '-');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^accord import wsdl: package\.json: not a WSDL: it is not XML \(it starts with "\{"\)/);
  });
});

describe('accord proxy', () => {
  it('without --out or --check is a usage error, exit 2, before anything listens', () => {
    const r = accord(ROOT, 'proxy', '--target', 'http://127.0.0.1:9', '--port', '0');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('accord proxy: give --out (record a contract), --check (check the traffic against contracts), or both');
  });
});

describe('accord compatible git commits with the refs swapped', () => {
  let repo: TempRepo;
  afterEach(() => repo.remove());

  it('warns that the "newer" commit is an ancestor of the "older" (the verdict was silently reversed)', () => {
    repo = new TempRepo();
    const file = 'contracts/api_math_v1.spec';
    repo.write(file, contract('math/api_math_v1.spec')).commit('v1');
    repo.edit(file, (t) => t.replace(/\n {2}Scenario: Cube[\s\S]*$/, '\n')).commit('v2 drops /cube');
    const swapped = accord(repo.dir, 'compatible', 'git', 'commits', file, 'HEAD^1', 'HEAD');
    expect(swapped.stderr).toBe(
      'accord compatible git commits: warning: "HEAD^1", given as the newer commit, is an ancestor of "HEAD": the newer commit comes first ("git commits <path> <newer> <older>"), so this compares the change backwards\n',
    );
    const right = accord(repo.dir, 'compatible', 'git', 'commits', file, 'HEAD', 'HEAD^1');
    expect(right.stderr).toBe('');
    expect(right.code).toBe(1);
  });
});

describe("a base URL that already holds the contract's path", () => {
  it('a 404 for /ws/ws says the base URL ends with /ws and what to set instead', async () => {
    const server = await startServer((req) => (req.url === '/ws' ? { status: 200, body: '<ok/>' } : { status: 404, body: 'not found' }));
    try {
      const c = parseContract('Feature: f\n  Scenario: get\n    When POST /ws\n    And request-body <getPet/>\n    Then status 200\n', 'f.spec');
      const base = `${server.url}/ws`;
      const r = await runCase(testCases(c)[0], { baseUrl: base, timeoutMs: 2_000 });
      expect(r.passed).toBe(false);
      const report = formatCaseReport(r, base);
      expect(report).toContain(
        `Hint: the base URL ${base} already ends with /ws, and the contract's path /ws starts with it: accord appends the contract's path to the base URL's, so the request went to /ws/ws. Set the base URL to ${server.url}.`,
      );
      // The right base URL passes, and a 404 with no doubling has no hint.
      expect((await runCase(testCases(c)[0], { baseUrl: server.url, timeoutMs: 2_000 })).passed).toBe(true);
      const other = await runCase(testCases(c)[0], { baseUrl: `${server.url}/api`, timeoutMs: 2_000 });
      expect(formatCaseReport(other, `${server.url}/api`)).not.toContain('Hint:');
    } finally {
      await server.close();
    }
  });
});
