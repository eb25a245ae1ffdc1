import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

export const REPO = path.join(__dirname, '..', '..');
const FIXTURES = path.join(REPO, '__tests__', 'fixtures');
export const MATH = readFileSync(path.join(REPO, 'contracts', 'math', 'api_math_v1.spec'), 'utf8');
/** The math contract before its Cube scenario was added (a compatible change). */
export const MATH_SQUARE_ONLY = MATH.slice(0, MATH.indexOf('  Scenario: Cube'));
/** `/square` answers a JSON object instead of a number: not backward compatible. */
export const MATH_BROKEN = MATH.replace('    And response-body (number)\n\n  Scenario: Cube', '    And response-body {"result": "(number)"}\n\n  Scenario: Cube');
const MATH_GROWN = `${MATH}\n  Scenario: Double a number\n    When POST /double\n    And request-body (number)\n    Then status 200\n    And response-body (number)\n`;

export interface Workspace {
  dir: string;
  /** Example commit hashes in the docs, standing for real commits of this repository. */
  hashes: Record<string, string>;
}

/**
 * A user's project as the docs' commands assume it: the example contracts in contracts/ under
 * git (four commits on main, the math contract growing compatibly), the logs, WSDLs and folders
 * the commands name, and accord-contracts resolvable by name (linked to this working tree).
 * `setup` names a variation the snippet needs (a breaking edit, a truncated log; `app`: only
 * what a Jest run should collect).
 */
export function makeWorkspace(setup?: string): Workspace {
  const dir = realpathSync(mkdtempSync(path.join(tmpdir(), 'accord-docs-')));
  const write = (file: string, content: string | Buffer) => {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), content);
  };
  const git = (...args: string[]) =>
    execFileSync('git', args, {
      cwd: dir,
      encoding: 'utf8',
      env: { ...process.env, GIT_AUTHOR_NAME: 'docs', GIT_AUTHOR_EMAIL: 'docs@example.com', GIT_COMMITTER_NAME: 'docs', GIT_COMMITTER_EMAIL: 'docs@example.com' },
    }).trim();
  write('package.json', JSON.stringify({ name: 'app', version: '1.0.0', private: true }));
  mkdirSync(path.join(dir, 'node_modules'));
  symlinkSync(REPO, path.join(dir, 'node_modules', 'accord-contracts'), 'dir');
  cpSync(path.join(REPO, 'contracts'), path.join(dir, 'contracts'), { recursive: true });

  git('init', '-q', '-b', 'main');
  write('contracts/math/api_math_v1.spec', MATH_SQUARE_ONLY);
  git('add', 'contracts');
  git('commit', '-q', '-m', 'contracts');
  write('contracts/math/api_math_v1.spec', MATH);
  git('commit', '-q', '-am', 'math: cube');
  write('NOTES.md', 'notes\n');
  git('add', 'NOTES.md');
  git('commit', '-q', '-m', 'notes');
  write('NOTES.md', 'more notes\n');
  git('commit', '-q', '-am', 'more notes');
  const hashes = { '3f2c1ab': git('rev-parse', '--short', 'HEAD'), '9e0d44f': git('rev-parse', '--short', 'HEAD~2') };

  // Versions side by side, for the commands that compare files outside git; Jest would collect them.
  if (setup !== 'app') {
    write('old/api_math_v1.spec', MATH_SQUARE_ONLY);
    write('new/api_math_v1.spec', MATH);
    write('old-contracts/api_math_v1.spec', MATH_SQUARE_ONLY);
    write('new-contracts/api_math_v1.spec', MATH);
  }
  for (const wsdl of ['calculator.wsdl', 'service.wsdl']) write(wsdl, readFileSync(path.join(FIXTURES, 'docs', 'calculator.wsdl')));
  const log = (name: string) => readFileSync(path.join(FIXTURES, 'logs', name));
  write('server.log', log('cxf-interceptors.log'));
  write('cxf.log.2.gz', gzipSync(log('cxf-interceptors.log')));
  write('cxf.log.1.gz', gzipSync(log('cxf-logging-feature.log')));
  write('cxf.log', log('cxf-interceptors.log'));
  write('recording.har', log('recording.har'));
  // Messages for `accord validate` (docs/validate.md): an Add request of the calculator, and one with a bad number.
  const add = (a: string) =>
    `<soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/" xmlns:tns="http://tempuri.org/">\n  <soapenv:Body><tns:Add><intA>${a}</intA><intB>3</intB></tns:Add></soapenv:Body>\n</soapenv:Envelope>\n`;
  write('add.xml', add('2'));
  write('add-bad.xml', add('two'));

  if (setup === 'compatible-change') write('contracts/math/api_math_v1.spec', MATH_GROWN);
  else if (setup === 'breaking-change') write('contracts/math/api_math_v1.spec', MATH_BROKEN);
  // An envelope whose closing lines are missing: the next log record starts before it closes.
  else if (setup === 'truncated-log')
    write(
      'server.log',
      log('pretty-envelopes.log')
        .toString('utf8')
        .split('\n')
        .filter((_, i) => i < 48 || i > 50)
        .join('\n'),
    );
  // Specmatic's settings, as README's "Coming from Specmatic" shows them, for its `accord config migrate` sample.
  else if (setup === 'specmatic') write('specmatic.yaml', readmeSpecmaticYaml());
  else if (setup !== undefined && setup !== 'app') throw new Error(`unknown workspace setup "${setup}"`);
  return { dir, hashes };
}

/** The specmatic.yaml README's "Coming from Specmatic" shows, read from README itself so the sample and the file cannot drift apart. */
function readmeSpecmaticYaml(): string {
  const readme = readFileSync(path.join(REPO, 'README.md'), 'utf8');
  const from = readme.indexOf('```yaml\n', readme.indexOf('### Coming from Specmatic'));
  return readme.slice(from + '```yaml\n'.length, readme.indexOf('```\n', from + 1));
}
