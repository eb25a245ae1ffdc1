import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { BuildOptions } from '../contract/build';
import type { Contract } from '../contract/model';
import { AccordError, CompositeAccordError } from '../errors';
import { FILE_LIMITS, readInputXml } from '../files';
import type { LoadedSet } from '../wsdl/load';
import { entryAt, readBlob, SYMLINK_MODE } from './git';
import type { FindingLocation, ScenarioPair, Verdict } from './model';
import { WsdlLines, type WsdlPlace } from './wsdl-lines';

/**
 * A WSDL version compared as the contract accord's importer writes from it,
 * imported in memory: the same scenarios, types and patterns a user would get
 * from `accord import wsdl`, so every construct the importer understands (and
 * every one it learns later) takes part in the check with no code here.
 * Findings are then pointed at the WSDL or XSD line of the changed node.
 */

/** A WSDL on disk (a user's file, or a commit's files written to a temp folder), and how its files are named to the user. */
export interface WsdlSource {
  path: string;
  /** An absolute path of a loaded file, as the user should see it ("HEAD:wsdl/types.xsd", "wsdl/types.xsd"). */
  shown(file: string): string;
  /** The file on disk a name given by `shown` stands for, when it is one of this source's; undefined otherwise. */
  pathOf?(shown: string): string | undefined;
  /** Removes what was written for it (a commit's files). */
  dispose?(): void;
}

export function isWsdlFile(name: string): boolean {
  return path.extname(name).toLowerCase() === '.wsdl';
}

// The importer is a job of its own: loaded only when a WSDL is compared (architecture.md: compat -> wsdl).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const wsdl = () => require('../wsdl') as typeof import('../wsdl');

export interface WsdlSide {
  contract: Contract;
  lines: WsdlLines;
  source: WsdlSource;
  /** Imported in part (allowed with `allowPartial`): what was not loaded, one line each, as the importer says it. */
  partial?: string[];
}

/**
 * Imports one version; errors name the user's files (not a temp folder). A version that can be
 * imported only in part is refused unless `allowPartial`: a node typed (anything) takes every change
 * as compatible, so a verdict on it would say "compatible" about what was never compared.
 */
export function readWsdlSide(
  source: WsdlSource,
  label: string,
  parse: (text: string, file: string, options?: BuildOptions) => Contract,
  options: BuildOptions,
  allowPartial = false,
): WsdlSide {
  try {
    const { text, summary } = wsdl().importWsdl(source.path);
    const partial = wsdl().isPartial(summary) ? [...wsdl().partialLines(summary, source.shown), ...wsdl().holeLines(summary, source.shown)] : undefined;
    if (partial && !allowPartial) {
      throw new AccordError(
        'ACCORD_ERR_WSDL',
        'can only be imported in part, and (anything) takes every change as compatible: no verdict. Put each file it imports where it was looked for (or import the WSDL by its URL with accord import wsdl, which fetches what it imports), or compare the rest with --allow-unresolved:',
        { file: summary.file },
        { details: wsdl().partialLines(summary, source.shown) },
      );
    }
    const set: LoadedSet = wsdl().loadWsdl(source.path);
    return { contract: parse(text, label, options), lines: new WsdlLines(set), source, partial };
  } catch (e) {
    throw renamed(e, source);
  }
}

function renamed(e: unknown, source: WsdlSource): unknown {
  const one = (x: AccordError) => new AccordError(x.code, x.message, { ...x.location, file: x.location.file ? source.shown(x.location.file) : undefined }, { details: x.details });
  if (e instanceof CompositeAccordError) return new CompositeAccordError(e.errors.map(one));
  if (e instanceof AccordError) return one(e);
  return e;
}

/**
 * The WSDL file itself as text and as its findings name it (`HEAD:wsdl/orders.wsdl`), for the HTML
 * report's side-by-side view; undefined when it cannot be read (the findings are listed all the same).
 */
export function wsdlText(source: WsdlSource): { text: string; shown: string } | undefined {
  try {
    return { text: readInputXml(source.path, { what: 'WSDL', limit: FILE_LIMITS.wsdlBytes }), shown: source.shown(source.path) };
  } catch (e) {
    if (e instanceof AccordError) return undefined;
    throw e;
  }
}

/** Points every finding at the WSDL line of its node: in the newer version when it is there, else in the older. */
export function locateInWsdl(verdict: Verdict, older: WsdlSide, newer: WsdlSide | undefined): void {
  // A note names a fault scenario: its line is the WSDL operation's fault.
  for (const n of verdict.notes) {
    const side = n.version === 'newer' ? newer : older;
    const p = side?.lines.operation(n.scenario);
    if (side && p) Object.assign(n, { line: p.line, file: side.source.shown(p.file) });
  }
  for (const res of verdict.results) {
    for (const f of res.findings) {
      // A finding of the overlap rule is about the newer scenario it names, not the older one's namesake.
      const n = newer && placeIn(newer, f.pair?.newer.scenario ?? res.scenario, f.path);
      const o = placeIn(older, res.scenario, f.path);
      if (f.pair) pairInWsdl(f.pair, older, newer);
      let location: FindingLocation | undefined;
      if (n && (n.exact || !o?.exact)) location = at('newer', n, newer!);
      else if (o) location = at('older', o, older);
      if (location) {
        if (n && o && !n.exact && o.exact) location = { ...at('newer', n, newer!), olderLine: o.line, olderFile: older.source.shown(o.file) };
        f.location = location;
      }
    }
  }
}

/** A pair's lines become its operations' lines in each WSDL. */
function pairInWsdl(pair: ScenarioPair, older: WsdlSide, newer: WsdlSide | undefined): void {
  const o = older.lines.operation(pair.older.scenario);
  if (o) pair.older = { ...pair.older, line: o.line, file: older.source.shown(o.file) };
  const n = newer?.lines.operation(pair.newer.scenario);
  if (n && newer) pair.newer = { ...pair.newer, line: n.line, file: newer.source.shown(n.file) };
}

function at(version: 'older' | 'newer', p: WsdlPlace, side: WsdlSide): FindingLocation {
  return { version, line: p.line, file: side.source.shown(p.file) };
}

/** The node's declaration when the path is a body path below Body or Header, else (or when not found) the operation. */
function placeIn(side: WsdlSide, scenario: string, findingPath: string): (WsdlPlace & { exact: boolean }) | undefined {
  const space = findingPath.indexOf(' ');
  const where = space < 0 ? findingPath : findingPath.slice(0, space);
  if (where === 'REQUEST.BODY' || where === 'RESPONSE.BODY') {
    let names = findingPath
      .slice(space + 1)
      .split('/')
      .map((n) => (n.endsWith(']') && n.includes('[') ? n.slice(0, n.lastIndexOf('[')) : n));
    // In a Fault, the schema's part starts below detail (SOAP 1.1) or Detail (1.2).
    const detail = names[2] === 'Fault' ? names.findIndex((n) => n === 'detail' || n === 'Detail') : -1;
    if (detail > 0) names = ['Envelope', 'Body', ...names.slice(detail + 1)];
    // Below Body or Header (index 1, under Envelope) start the message's global elements.
    const found = names[1] === 'Body' || names[1] === 'Header' ? side.lines.element(names.slice(2)) : undefined;
    if (found) return found;
  }
  const op = side.lines.operation(scenario);
  return op && { ...op, exact: where !== 'REQUEST.BODY' && where !== 'RESPONSE.BODY' && !where.includes('/') };
}

/**
 * A WSDL at a commit, with the local files it imports or includes at the same
 * commit, written to a temp folder at their places relative to the repository
 * root, so the importer reads them as it reads a working tree. Imports are
 * followed as the importer reports them missing; a file outside the
 * repository, a symlink or a missing one is left unresolved (the importer says so).
 */
export async function wsdlAtCommit(root: string, commit: string, rel: string, where: string): Promise<WsdlSource> {
  const dir = realpathSync(mkdtempSync(path.join(tmpdir(), 'accord-wsdl-')));
  const dispose = () => rmSync(dir, { recursive: true, force: true });
  const source: WsdlSource = {
    path: path.join(dir, rel),
    shown: (f) => `${where}:${path.relative(dir, f).split(path.sep).join('/')}`,
    pathOf: (s) => inside(dir, s.startsWith(`${where}:`) ? s.slice(where.length + 1) : undefined),
    dispose,
  };
  try {
    const written = new Set<string>();
    const fetch = async (file: string): Promise<boolean> => {
      if (written.has(file)) return false;
      written.add(file);
      const entry = await entryAt(root, commit, file);
      if (!entry || entry.mode === SYMLINK_MODE || entry.type !== 'blob') return false;
      const bytes = await readBlob(root, commit, file, FILE_LIMITS.wsdlBytes);
      if (!bytes) throw new AccordError('ACCORD_ERR_LIMIT', `${where}:${file} is larger than ${FILE_LIMITS.wsdlBytes} bytes`);
      mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      writeFileSync(path.join(dir, file), bytes);
      return true;
    };
    if (!(await fetch(rel))) throw new AccordError('ACCORD_ERR_GIT', `${rel} is not a file in ${where}`);
    for (let round = 0; round < FILE_LIMITS.wsdlFiles; round++) {
      const missing = wsdl()
        .loadWsdl(source.path)
        .unresolved.filter((u) => u.reason === 'no such file')
        .map((u) =>
          path
            .relative(dir, path.resolve(path.dirname(u.file), decodeLocation(u.location)))
            .split(path.sep)
            .join('/'),
        )
        .filter((f) => !f.startsWith('../') && f !== '..' && !path.isAbsolute(f));
      let added = false;
      for (const f of missing) added = (await fetch(f)) || added;
      if (!added) break;
    }
    return source;
  } catch (e) {
    dispose();
    throw renamed(e, source);
  }
}

/** A working-tree WSDL: read where it is, named relative to the current folder. */
export function wsdlOnDisk(file: string, cwd: string): WsdlSource {
  const wsdlPath = path.resolve(cwd, file);
  // Only files beside the WSDL (its imports), never any file a finding might name.
  return {
    path: wsdlPath,
    shown: (f) => path.relative(cwd, f).split(path.sep).join('/') || f,
    pathOf: (s) => inside(path.dirname(wsdlPath), path.relative(path.dirname(wsdlPath), path.resolve(cwd, s))),
  };
}

/** `rel` under `dir`, or undefined when it leaves it. */
function inside(dir: string, rel: string | undefined): string | undefined {
  if (rel === undefined || rel === '' || path.isAbsolute(rel) || rel.split(/[\\/]/).includes('..')) return undefined;
  return path.join(dir, rel);
}

/**
 * The text of another file of the source (an imported XSD a finding is in), by the name findings
 * give it; undefined when it is not one of the source's files or cannot be read.
 */
export function sourceFileText(source: WsdlSource, shown: string): string | undefined {
  const file = source.pathOf?.(shown);
  if (!file || file === source.path) return undefined;
  try {
    return readInputXml(file, { what: 'XSD', limit: FILE_LIMITS.wsdlBytes });
  } catch (e) {
    if (e instanceof AccordError) return undefined;
    throw e;
  }
}

function decodeLocation(loc: string): string {
  try {
    return decodeURIComponent(loc.trim());
  } catch {
    return loc.trim();
  }
}
