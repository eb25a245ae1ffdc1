import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { DOMParser, type Document } from '@xmldom/xmldom';
import { childEnv } from '../helpers/child-env';
import { accord, ROOT, TempRepo } from './git-repo';

/**
 * `accord compatible --format text|json|junit|github|sarif` on a real
 * repository with real commits, through the built CLI: each finding points at
 * the line of the changed node in the .spec, and a mistake (exit 2) still
 * gives a machine-readable document.
 */
const PET_V1 = `Feature: Pets

  Scenario: Get a pet
    When POST /ws
    And request-header SOAPAction "getPet"
    And request-body
    """
    <Envelope>
      <Body>
        <getPet>
          <id>(number)</id>
          <tag>(string)</tag>
        </getPet>
      </Body>
    </Envelope>
    """
    Then status 200
    And response-body
    """
    <Envelope>
      <Body>
        <getPetResponse>
          <name>(string)</name>
        </getPetResponse>
      </Body>
    </Envelope>
    """
`;

const FILE = 'contracts/pets_v1.spec';

/** v2: the response's <name> becomes (number)|... widened to add <age>; the request loses <tag>. */
function breakIt(text: string): string {
  return text.replace('          <name>(string)</name>\n', '          <name>(string)</name>\n          <age>(number)</age>\n').replace('          <tag>(string)</tag>\n', '');
}

let repos: TempRepo[] = [];
function repoWith(newer: (t: string) => string, file = FILE): TempRepo {
  const r = new TempRepo();
  repos.push(r);
  r.write(file, PET_V1);
  r.commit('v1');
  r.edit(file, newer);
  return r;
}
afterEach(() => {
  for (const r of repos) r.remove();
  repos = [];
});

/** The line in the working-tree file where `text` is (1-based). */
function lineOf(r: TempRepo, file: string, text: string): number {
  const i = r
    .read(file)
    .split('\n')
    .findIndex((l) => l.includes(text));
  if (i < 0) throw new Error(`${text} not in ${file}`);
  return i + 1;
}

function raw(cwd: string, ...args: string[]): { code: number; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [path.join(ROOT, 'bin', 'accord.js'), ...args], { cwd, encoding: 'utf8', env: childEnv() });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

function parseXml(text: string): Document {
  const errors: string[] = [];
  const doc = new DOMParser({ onError: (level: string, msg: string) => void errors.push(`${level}: ${msg}`) }).parseFromString(text, 'text/xml');
  expect(errors).toEqual([]);
  return doc;
}

describe('every format points at the changed node', () => {
  test('text and json: "At" names the line of <age> (added) and the line of <tag> in the older version (removed)', () => {
    const r = repoWith(breakIt);
    const age = lineOf(r, FILE, '<age>');
    const text = accord(r.dir, 'compatible', 'git', 'file', FILE);
    expect(text.code).toBe(1);
    expect(text.stdout).toContain(`At: ${FILE}:${age}`);
    // <tag> is gone from the newer request: the finding points at its parent <getPet> there, and says where it was.
    const getPet = lineOf(r, FILE, '<getPet>');
    expect(text.stdout).toContain(`At: ${FILE}:${getPet} (was HEAD:${FILE}:12)`);

    const json = accord(r.dir, 'compatible', 'git', 'file', FILE, '--format', 'json');
    expect(json.code).toBe(1);
    const doc = JSON.parse(json.stdout);
    const findings = doc.files[0].results[0].findings;
    const added = findings.find((f: { rule: string }) => f.rule === 'response-node-added');
    expect(added.location).toEqual({ version: 'newer', line: age });
    const removed = findings.find((f: { rule: string }) => f.rule === 'request-node-removed');
    expect(removed.location).toEqual({ version: 'newer', line: getPet, olderLine: 12 });
    // --json stays, as the same document.
    expect(accord(r.dir, 'compatible', 'git', 'file', FILE, '--json').stdout).toBe(json.stdout);
  });

  test('github: one ::error per break with file and line; the counts and the verdict after', () => {
    const r = repoWith(breakIt);
    const out = accord(r.dir, 'compatible', 'git', 'file', FILE, '--format', 'github');
    expect(out.code).toBe(1);
    const lines = out.stdout.trimEnd().split('\n');
    const errors = lines.filter((l) => l.startsWith('::error '));
    expect(errors).toHaveLength(2);
    expect(errors).toContainEqual(
      expect.stringMatching(new RegExp(`^::error file=contracts/pets_v1.spec,line=${lineOf(r, FILE, '<age>')},title=accord compatible%3A response-node-added::POST /ws -> 200: `)),
    );
    expect(lines.at(-1)).toBe('The newer contract is NOT backward compatible');
  });

  test('junit: well-formed, a testsuite per file, a failure typed by rule, with the lines', () => {
    const r = repoWith(breakIt);
    const out = accord(r.dir, 'compatible', 'git', 'commits', 'contracts', 'HEAD', 'HEAD', '--format', 'junit');
    expect(out.code).toBe(0);
    expect(parseXml(out.stdout).getElementsByTagName('testcase')).toHaveLength(1);
    r.commit('v2');
    const broken = accord(r.dir, 'compatible', 'git', 'commits', 'contracts', 'HEAD', 'HEAD^1', '--format', 'junit');
    expect(broken.code).toBe(1);
    const doc = parseXml(broken.stdout);
    const suite = doc.getElementsByTagName('testsuite')[0];
    expect(suite.getAttribute('name')).toBe(FILE);
    expect(suite.getAttribute('failures')).toBe('1');
    const failure = doc.getElementsByTagName('failure')[0];
    expect(['request-node-removed', 'response-node-added']).toContain(failure.getAttribute('type'));
    expect(failure.textContent).toContain(`At: HEAD:${FILE}:${lineOf(r, FILE, '<age>')}`);
    expect(doc.getElementsByTagName('testcase')[0].getAttribute('line')).toBe('3');
  });

  test('sarif: version 2.1.0, accord rules, a result per break with its region', () => {
    const r = repoWith(breakIt);
    const out = accord(r.dir, 'compatible', 'git', 'file', FILE, '--format', 'sarif');
    expect(out.code).toBe(1);
    const doc = JSON.parse(out.stdout);
    expect(doc.version).toBe('2.1.0');
    const run = doc.runs[0];
    expect(run.tool.driver.name).toBe('accord');
    expect(run.results).toHaveLength(2);
    for (const res of run.results) {
      expect(run.tool.driver.rules[res.ruleIndex].id).toBe(res.ruleId);
      expect(res.locations[0].physicalLocation.artifactLocation.uri).toBe(FILE);
    }
    const added = run.results.find((x: { ruleId: string }) => x.ruleId === 'response-node-added');
    expect(added.locations[0].physicalLocation.region).toEqual({ startLine: lineOf(r, FILE, '<age>') });
    expect(run.invocations[0].executionSuccessful).toBe(true);
  });
});

describe('input never reaches the output raw', () => {
  const nasty = (t: string) => breakIt(t).replace('Scenario: Get a pet', 'Scenario: Get a pet \u001b[2J 100%, a:b \u202e');
  const older = (t: string) => t.replace('Scenario: Get a pet', 'Scenario: Get a pet \u001b[2J 100%, a:b \u202e');

  test.each(['github', 'junit', 'sarif', 'json'])('%s escapes control characters and bidi marks', (format) => {
    const r = new TempRepo();
    repos.push(r);
    r.write(FILE, older(PET_V1));
    r.commit('v1');
    r.edit(FILE, nasty);
    const out = raw(r.dir, 'compatible', 'git', 'file', FILE, '--format', format);
    expect(out.code).toBe(1);
    expect(out.stdout).not.toMatch(/[\u001b\u202e]/);
    if (format === 'github') {
      // `%` is the command's escape character: written %25, never left to be read as an escape.
      expect(out.stdout).toContain('100%25, a:b');
      expect(out.stdout).toContain('\\x1b[2J');
    }
  });

  test('github: a file name with a comma and a colon is escaped as a property', () => {
    const file = 'contracts/a,b:c_v1.spec';
    const r = repoWith(breakIt, file);
    const out = accord(r.dir, 'compatible', 'git', 'file', file, '--format', 'github');
    expect(out.stdout).toContain('::error file=contracts/a%2Cb%3Ac_v1.spec,line=');
  });
});

describe('a mistake (exit 2) still gives a document', () => {
  test.each([
    ['json', (s: string) => expect(JSON.parse(s).errors[0].message).toContain('unknown git ref')],
    ['sarif', (s: string) => expect(JSON.parse(s).runs[0].invocations[0]).toMatchObject({ executionSuccessful: false, toolExecutionNotifications: [{ level: 'error' }] })],
    ['junit', (s: string) => expect(parseXml(s).getElementsByTagName('error')[0].getAttribute('type')).toBe('ACCORD_ERR_GIT')],
    ['github', (s: string) => expect(s).toMatch(/^::error title=accord compatible%3A ACCORD_ERR_GIT::unknown git ref/)],
  ])('%s', (format, check) => {
    const r = repoWith(breakIt);
    const out = accord(r.dir, 'compatible', 'git', 'commits', FILE, 'HEAD', 'no-such-ref', '--format', format);
    expect(out.code).toBe(2);
    expect(out.stderr).toContain('unknown git ref');
    check(out.stdout);
  });

  test('a contract that does not parse: each error with its file and line', () => {
    const r = repoWith((t) => t.replace('Then status 200', 'Then status abc'));
    const out = accord(r.dir, 'compatible', 'git', 'file', FILE, '--format', 'sarif');
    expect(out.code).toBe(2);
    const n = JSON.parse(out.stdout).runs[0].invocations[0].toolExecutionNotifications[0];
    expect(n.locations[0].physicalLocation).toEqual({ artifactLocation: { uri: FILE }, region: { startLine: 17 } });
  });

  test('an unknown format is a usage error; text output writes no document', () => {
    const r = repoWith(breakIt);
    const out = accord(r.dir, 'compatible', 'git', 'file', FILE, '--format', 'xml');
    expect(out.code).toBe(2);
    expect(out.stderr).toContain('unknown --format "xml"');
    expect(out.stdout).toBe('');
    const both = accord(r.dir, 'compatible', '--json', 'git', 'file', FILE, '--format', 'sarif');
    expect(both.code).toBe(2);
  });
});
