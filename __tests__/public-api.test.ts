import { readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/**
 * The package's root exports (src/index.ts) are exactly the list in docs/architecture.md
 * ("What is public"): an export is added on purpose, and documented.
 */
const ROOT = path.join(__dirname, '..');

function exported(): string[] {
  const file = path.join(ROOT, 'src', 'index.ts');
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
  const names: string[] = [];
  for (const statement of source.statements) {
    const exportKeyword = ts.canHaveModifiers(statement) && ts.getModifiers(statement)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
    if (ts.isExportDeclaration(statement) && statement.exportClause && ts.isNamedExports(statement.exportClause)) {
      for (const e of statement.exportClause.elements) names.push(`${statement.isTypeOnly || e.isTypeOnly ? 'type ' : ''}${e.name.text}`);
    } else if (ts.isExportDeclaration(statement)) {
      throw new Error('src/index.ts: `export *` hides what is public; name each export');
    } else if (exportKeyword) {
      throw new Error(`src/index.ts: only re-exports belong here (line ${source.getLineAndCharacterOfPosition(statement.getStart(source)).line + 1})`);
    }
  }
  return names.sort();
}

function documented(): string[] {
  const doc = readFileSync(path.join(ROOT, 'docs', 'architecture.md'), 'utf8');
  const start = doc.indexOf('<!-- public-api -->');
  expect(start).toBeGreaterThan(0);
  const list = doc.slice(start).split('\n').slice(1);
  const names: string[] = [];
  for (const line of list) {
    if (line === '' && names.length === 0) continue;
    const m = /^- (values|types): (.*)$/.exec(line);
    if (!m) break;
    for (const name of m[2].split(', ')) names.push(`${m[1] === 'types' ? 'type ' : ''}${name.replaceAll('`', '')}`);
  }
  return names.sort();
}

test('the root exports exactly the documented public API', () => {
  expect(exported()).toEqual(documented());
  expect(exported().length).toBeGreaterThan(20);
});
