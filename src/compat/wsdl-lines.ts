import type { Element } from '@xmldom/xmldom';
import { attr, kids, NS, placeOf } from '../wsdl/dom';
import type { LoadedSet } from '../wsdl/load';

/**
 * Lines in a WSDL (and the schemas it includes) for the findings of a
 * WSDL-version check: the contract compared was imported in memory, so its
 * own lines mean nothing to the user. An element path
 * (`Envelope/Body/getPetRequest/id`) is followed by local names from the
 * global element through inline and named types (extension bases and groups
 * included); where the walk stops, the last declaration found is the answer,
 * and without any, the operation's line.
 */
export interface WsdlPlace {
  /** The file as loaded (absolute): the caller turns it into what the user sees. */
  file: string;
  line: number;
}

/** Schema element kinds whose children may declare the elements of a content model. */
const MODEL = ['complexType', 'complexContent', 'simpleContent', 'sequence', 'choice', 'all', 'extension', 'restriction', 'group'];
/** How the importer names a fault scenario: `<operation> fault <fault name>`. */
const FAULT_WORD = ' fault ';
/** Bounds the walk through named types, groups and bases (a recursive schema must end). */
const MAX_STEPS = 64;

export class WsdlLines {
  private readonly globals = new Map<string, Element>();
  private readonly types = new Map<string, Element>();
  private readonly groups = new Map<string, Element>();
  private readonly operations = new Map<string, Element>();

  constructor(set: LoadedSet) {
    for (const s of set.schemas) {
      for (const el of kids(s.el, NS.xsd, 'element')) setOnce(this.globals, attr(el, 'name'), el);
      for (const el of kids(s.el, NS.xsd, 'complexType')) setOnce(this.types, attr(el, 'name'), el);
      for (const el of kids(s.el, NS.xsd, 'group')) setOnce(this.groups, attr(el, 'name'), el);
    }
    for (const d of set.wsdls) {
      const ns = d.kind === 'wsdl11' ? NS.wsdl11 : NS.wsdl20;
      for (const owner of kids(d.root, ns, ['portType', 'interface'])) for (const op of kids(owner, ns, 'operation')) setOnce(this.operations, attr(op, 'name'), op);
    }
  }

  /**
   * The operation (a scenario of the imported contract is named after it, maybe with its port type
   * first), or for a fault scenario (`<operation> fault <name>`) the operation's fault.
   */
  operation(scenario: string): WsdlPlace | undefined {
    const f = scenario.lastIndexOf(FAULT_WORD);
    const name = f < 0 ? scenario : scenario.slice(0, f);
    const op = this.operations.get(name) ?? this.operations.get(name.slice(name.lastIndexOf(' ') + 1));
    if (!op) return undefined;
    const faultName = f < 0 ? undefined : scenario.slice(f + FAULT_WORD.length);
    const fault = faultName === undefined ? undefined : kids(op, undefined, ['fault', 'outfault']).find((k) => (attr(k, 'name') ?? local(attr(k, 'ref') ?? '')) === faultName);
    return this.place(fault ?? op);
  }

  /** The declaration of the deepest node of `names` (local names below Body) that could be followed. */
  element(names: readonly string[]): (WsdlPlace & { exact: boolean }) | undefined {
    if (names.length === 0) return undefined;
    let decl = this.globals.get(names[0]);
    if (!decl) return undefined;
    let found = decl;
    let exact = true;
    for (const name of names.slice(1)) {
      if (name.startsWith('@')) break;
      const next = this.child(decl, name);
      if (!next) {
        exact = false;
        break;
      }
      found = next;
      decl = next.hasAttribute('ref') ? (this.globals.get(local(attr(next, 'ref')!)) ?? next) : next;
    }
    const place = this.place(found);
    return place && { ...place, exact };
  }

  private place(el: Element): WsdlPlace | undefined {
    const p = placeOf(el);
    return p.file && p.line ? { file: p.file, line: p.line } : undefined;
  }

  /** A child element declaration named `name` in the content model of element declaration `decl`. */
  private child(decl: Element, name: string): Element | undefined {
    const start: Element[] = [];
    const typeName = attr(decl, 'type');
    if (typeName) {
      const t = this.types.get(local(typeName));
      if (t) start.push(t);
    }
    for (const c of kids(decl, NS.xsd, 'complexType')) start.push(c);
    const queue = [...start];
    for (let steps = 0; queue.length > 0 && steps < MAX_STEPS * 8; steps++) {
      const el = queue.shift()!;
      for (const k of kids(el, NS.xsd)) {
        if (k.localName === 'element' && (attr(k, 'name') === name || (attr(k, 'ref') && local(attr(k, 'ref')!) === name))) return k;
        if (MODEL.includes(k.localName ?? '')) queue.push(k);
        if (k.localName === 'group' && attr(k, 'ref')) pushNamed(queue, this.groups, attr(k, 'ref')!);
        if ((k.localName === 'extension' || k.localName === 'restriction') && attr(k, 'base')) pushNamed(queue, this.types, attr(k, 'base')!);
      }
    }
    return undefined;
  }
}

function pushNamed(queue: Element[], map: Map<string, Element>, qname: string): void {
  const t = map.get(local(qname));
  if (t) queue.push(t);
}

function setOnce(map: Map<string, Element>, name: string | undefined, el: Element): void {
  if (name && !map.has(name)) map.set(name, el);
}

function local(qname: string): string {
  return qname.slice(qname.indexOf(':') + 1);
}
