import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { AccordError } from '../errors';
import { readInputXml } from '../files';
import { SOAPUI_LIMITS, XML_LIMITS } from '../limits';
import { parseXml } from '../xml/parse';
import { readProject } from './project';
import type { SoapuiProject } from './model';
import { resolveTree, SOAPUI_NS, type Node } from './tree';

/**
 * The edge that reads a SoapUI project from disk, bounded (SOAPUI_LIMITS): one
 * `*-soapui-project.xml` file, or a ReadyAPI composite project, a folder whose `settings.xml` is the
 * `con:soapui-project` without the parts split out into folders of their own (interfaces with an
 * operation file each, test suites with a test case file each, mock services with a mock operation
 * file each). The parts are put back into one tree, each element keeping the file it came from.
 */
export function readProjectSource(input: string): SoapuiProject {
  const st = statSync(input, { throwIfNoEntry: false });
  if (!st) throw new AccordError('ACCORD_ERR_IO', 'no such file or folder', { file: input });
  if (st.isDirectory()) return readProject(readComposite(input), true);
  return readProject(readRoot(input, path.basename(input)), false);
}

const budget = { bytes: 0 };

function readXml(file: string, shown: string): Node {
  const text = readInputXml(file, { what: 'SoapUI project file', limit: SOAPUI_LIMITS.fileBytes, shown }, { nulOnly: true });
  budget.bytes += text.length;
  if (budget.bytes > SOAPUI_LIMITS.totalBytes)
    throw new AccordError('ACCORD_ERR_LIMIT', `the project's files are more than ${SOAPUI_LIMITS.totalBytes} bytes together`, { file: shown });
  let root;
  try {
    root = parseXml(text, XML_LIMITS);
  } catch (e) {
    if (e instanceof AccordError) throw new AccordError(e.code, e.message, { ...e.location, file: shown }, { cause: e });
    throw e;
  }
  return resolveTree(root, shown);
}

function readRoot(file: string, shown: string): Node {
  budget.bytes = 0;
  const root = readXml(file, shown);
  if (root.ns !== SOAPUI_NS || root.local !== 'soapui-project')
    throw new AccordError('ACCORD_ERR_USAGE', `not a SoapUI project: the root element is <${root.el.name}>; expected <con:soapui-project> (namespace ${SOAPUI_NS})`, {
      file: shown,
      line: root.el.line,
    });
  return root;
}

function readComposite(dir: string): Node {
  const shownOf = (f: string) => path.join(path.basename(dir), path.relative(dir, f));
  const settings = path.join(dir, 'settings.xml');
  if (!statSync(settings, { throwIfNoEntry: false })?.isFile())
    throw new AccordError('ACCORD_ERR_USAGE', 'not a SoapUI project: a folder is read as a composite project, whose settings.xml holds the <con:soapui-project>; there is none', {
      file: dir,
    });
  const root = readRoot(settings, shownOf(settings));
  let files = 0;
  const count = () => {
    if (++files > SOAPUI_LIMITS.compositeFiles)
      throw new AccordError('ACCORD_ERR_LIMIT', `the composite project holds more than ${SOAPUI_LIMITS.compositeFiles} files`, { file: dir });
  };
  const xmlFiles = (d: string) =>
    listSorted(d, dir)
      .filter((n) => n.toLowerCase().endsWith('.xml') && n !== 'settings.xml')
      .map((n) => path.join(d, n))
      .filter((f) => statSync(f).isFile());
  // Root-level files: load tests, REST resources, and other top-level parts, each a child of the project.
  for (const f of xmlFiles(dir)) {
    count();
    root.kids.push(readXml(f, shownOf(f)));
  }
  const walk = (d: string, depth: number): void => {
    if (depth > SOAPUI_LIMITS.compositeDepth) return;
    for (const name of listSorted(d, dir)) {
      const sub = path.join(d, name);
      if (name === 'reports' || name.startsWith('.') || !statSync(sub).isDirectory()) continue;
      const own = path.join(sub, 'settings.xml');
      if (!statSync(own, { throwIfNoEntry: false })?.isFile()) {
        walk(sub, depth + 1);
        continue;
      }
      count();
      const container = readXml(own, shownOf(own));
      if (container.ns !== SOAPUI_NS) continue;
      // Its other files are its parts (an interface's operations, a suite's test cases, a mock service's operations), each a child of it.
      for (const f of xmlFiles(sub)) {
        count();
        container.kids.push(readXml(f, shownOf(f)));
      }
      root.kids.push(container);
    }
  };
  walk(dir, 1);
  return root;
}

/** A folder's entries in the project's order where `element.order` gives one (file stems, one a line), else by name. */
function listSorted(d: string, top: string): string[] {
  let names: string[];
  try {
    names = readdirSync(d);
  } catch (e) {
    throw new AccordError(
      'ACCORD_ERR_IO',
      `cannot read the folder: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`,
      { file: path.relative(path.dirname(top), d) },
      { cause: e },
    );
  }
  names.sort();
  let order: string[] = [];
  const orderFile = path.join(d, 'element.order');
  if (names.includes('element.order')) {
    try {
      order = readInputXml(orderFile, { what: 'element.order', limit: SOAPUI_LIMITS.fileBytes })
        .split('\n')
        .map((l) => l.trim())
        .filter((l) => l !== '');
    } catch {
      order = [];
    }
  }
  const rank = (n: string) => {
    const stem = n.endsWith('.xml') ? n.slice(0, -4) : n;
    const i = order.indexOf(stem);
    return i < 0 ? order.length : i;
  };
  return names.filter((n) => n !== 'element.order').sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0));
}
