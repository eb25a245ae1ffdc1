import { accord, TempRepo } from './git-repo';
import { baseWsdl, schema, TYPES_XSD } from './wsdl-pairs';

/**
 * `accord compatible git file|commits` on a .wsdl path in a real repository:
 * the WSDL's local imports are read at the same commit as the WSDL, so a
 * change made only in an included XSD is seen, on both sides.
 */
const WSDL = 'wsdl/pets.wsdl';
const XSD = 'wsdl/types.xsd';
const SPLIT = baseWsdl().replace(schema(), schema(undefined, '      <xsd:include schemaLocation="types.xsd"/>'));
const AGE = (t: string) =>
  t.replace('<xsd:element name="name" type="xsd:string"/>', '<xsd:element name="name" type="xsd:string"/>\n          <xsd:element name="age" type="xsd:int"/>');

let repos: TempRepo[] = [];
function repo(): TempRepo {
  const r = new TempRepo();
  repos.push(r);
  return r.write(WSDL, SPLIT).write(XSD, TYPES_XSD);
}
afterEach(() => {
  for (const r of repos) r.remove();
  repos = [];
});

function lineOf(text: string, part: string): number {
  return text.split('\n').findIndex((l) => l.includes(part)) + 1;
}

test('git file: a change only in the included XSD breaks the WSDL, and the annotation points at the XSD line', () => {
  const r = repo();
  r.commit('v1');
  expect(accord(r.dir, 'compatible', 'git', 'file', WSDL).code).toBe(0);
  r.edit(XSD, AGE);
  const out = accord(r.dir, 'compatible', 'git', 'file', WSDL, '--format', 'github');
  expect(out.stderr).toBe('');
  expect(out.code).toBe(1);
  expect(out.stdout).toContain(`::error file=${XSD},line=${lineOf(r.read(XSD), 'name="age"')},title=accord compatible%3A response-node-added::`);
  expect(out.stdout).toContain('getPetResponse/pet/age is new in the response');
});

test('git commits: each side reads the XSD of its own commit (an older XSD in the working tree changes nothing)', () => {
  const r = repo();
  r.commit('v1');
  r.edit(XSD, AGE);
  r.commit('v2: age');
  // The working tree goes back to v1: commits must not read it.
  r.write(XSD, TYPES_XSD);
  const out = accord(r.dir, 'compatible', 'git', 'commits', WSDL, 'HEAD', 'HEAD^1');
  expect(out.code).toBe(1);
  expect(out.stdout).toContain('[response-node-added]');
  expect(out.stdout).toContain(`At: ${XSD}:`);
  // Reversed, the newer commit lacks <age>: the response lost a node.
  const back = accord(r.dir, 'compatible', 'git', 'commits', WSDL, 'HEAD^1', 'HEAD');
  expect(back.code).toBe(1);
  expect(back.stdout).toContain('[response-node-removed]');
  expect(back.stdout).toContain(`(was HEAD:${XSD}:`);
  expect(accord(r.dir, 'compatible', 'git', 'commits', WSDL, 'HEAD', 'HEAD').code).toBe(0);
});

test('a WSDL new in the working tree passes; a broken one is exit 2 naming the file at its commit', () => {
  const r = new TempRepo();
  repos.push(r);
  r.write('README', 'x').commit('nothing yet');
  r.write(WSDL, SPLIT).write(XSD, TYPES_XSD);
  const added = accord(r.dir, 'compatible', 'git', 'file', WSDL);
  expect(added.code).toBe(0);
  expect(added.stdout).toContain('is a new contract');
  r.commit('v1');
  r.write(WSDL, SPLIT.slice(0, 400));
  r.commit('broken wsdl');
  const broken = accord(r.dir, 'compatible', 'git', 'commits', WSDL, 'HEAD~1', 'HEAD', '--format', 'json');
  expect(broken.code).toBe(2);
  // The older side is the broken one: named at its commit, never by the temp folder it was read from.
  expect(JSON.parse(broken.stdout).errors[0]).toMatchObject({ code: 'ACCORD_ERR_XML', file: `HEAD:${WSDL}` });
  expect(broken.stderr).toContain(`HEAD:${WSDL}:`);
  expect(broken.stderr).not.toContain('accord-wsdl-');
});

test('two WSDL files outside git; a WSDL against a .spec is a usage error', () => {
  const r = repo();
  r.write('old/pets.wsdl', baseWsdl()).write('new/pets.wsdl', AGE(baseWsdl()));
  const out = accord(r.dir, 'compatible', 'old/pets.wsdl', 'new/pets.wsdl', '--format', 'sarif');
  expect(out.code).toBe(1);
  const result = JSON.parse(out.stdout).runs[0].results[0];
  expect(result.ruleId).toBe('response-node-added');
  expect(result.locations[0].physicalLocation).toEqual({ artifactLocation: { uri: 'new/pets.wsdl' }, region: { startLine: lineOf(AGE(baseWsdl()), 'name="age"') } });
  r.write('x.spec', 'Feature: x\n');
  const mixed = accord(r.dir, 'compatible', 'old/pets.wsdl', 'x.spec');
  expect(mixed.code).toBe(2);
  expect(mixed.stderr).toContain('compare a WSDL with a WSDL');
});

test('an include committed nowhere: each side is refused (exit 2) naming it at its commit, never judged compatible', () => {
  const r = new TempRepo();
  repos.push(r);
  // types.xsd is never committed: the WSDL at HEAD includes a file that is not there, and the working tree lacks it too.
  r.write(WSDL, SPLIT).commit('v1');
  const out = accord(r.dir, 'compatible', 'git', 'file', WSDL);
  expect(out.code).toBe(2);
  expect(out.stdout).not.toContain('compatible');
  expect(out.stderr).toMatch(/^HEAD:wsdl\/pets\.wsdl: can only be imported in part/m);
  // Each says where it was looked for, at its commit (issue 35: the import, where it was looked for, how to fix it).
  expect(out.stderr).toMatch(
    /^ {2}HEAD:wsdl\/pets\.wsdl:\d+: import types\.xsd not loaded \(no such file, looked for at HEAD:wsdl\/types\.xsd\): what it declares is typed \(anything\)$/m,
  );
  expect(out.stderr).toMatch(/^ {2}wsdl\/pets\.wsdl:\d+: import types\.xsd not loaded \(no such file, looked for at wsdl\/types\.xsd\)/m);
  expect(out.stderr).toContain('or compare the rest with --allow-unresolved');
});
