import type { Pattern, XmlContent, XmlElementPattern } from '../pattern/types';
import { MULTIPLE, ONCE, OPTIONAL } from '../pattern/occurs';
import { xmlElement } from '../pattern/xml-pattern';
import type { ElementShape } from './infer-xml';
import type { JsonShape } from './infer-json';
import { pascal, type TypeNames } from './names';

/** A `type` declaration a scenario needs: its name and its pattern. */
export interface TypeDecl {
  name: string;
  pattern: Pattern;
}

const ANYTHING: Pattern = { kind: 'scalar', type: 'anything' };

/**
 * An element shape as a contract element pattern with typed placeholders. A
 * run of same-named siblings becomes `(Name*)` with the node declared as type
 * Name; a node missing from some calls gets specmatic_occurs="optional".
 */
export function renderElement(s: ElementShape, names: TypeNames, types: TypeDecl[], optional = false, up: ElementShape[] = []): XmlElementPattern {
  const instances = s.count + s.nil;
  // A protocol attribute whose recorded values differ (`arrayType="xsd:int[3]"`, then `[5]`) is left out: matching
  // ignores it on a message unless declared, and any one value (or a made-up one) would be wrong for the others.
  const attributes = s.attributes
    .filter((a) => a.literal !== null)
    .map((a) => ({
      name: a.name,
      local: a.local,
      optional: a.seen < instances,
      pattern: (a.literal !== undefined ? { kind: 'literal', value: a.literal } : { kind: 'scalar', type: a.type }) as Pattern,
    }));
  const el = (content: XmlContent[]) => xmlElement(s.name, { namespaces: [...s.namespaces], attributes, occurs: optional ? OPTIONAL : ONCE, nillable: s.nil > 0, content });
  const text = (): XmlContent => {
    const code = faultCode(s, up, names, types);
    if (code) return { kind: 'xml-text', pattern: code };
    const scalar: Pattern = { kind: 'scalar', type: s.text! };
    return { kind: 'xml-text', pattern: s.textSeen < s.count && s.text !== 'string' ? { kind: 'optional', inner: scalar } : scalar };
  };
  if (s.slots.length === 0) return el(s.text === undefined ? [] : [text()]);
  // Mixed content (text beside child nodes): the matcher reads an element's texts together, so one
  // placeholder keeps every logged call matching. It must stand between tags: next to a `(Type*)`
  // line the two would read as one text. With no such place, the content is (anything).
  const at = s.text === undefined ? -1 : textPlace(s);
  if (s.text !== undefined && at < 0) return el([{ kind: 'xml-text', pattern: ANYTHING }]);
  const content: XmlContent[] = [];
  for (const [i, slot] of [...s.slots, undefined].entries()) {
    if (i === at) content.push(text());
    if (!slot) break;
    if (slot.multiple) {
      const name = names.take(slot.local);
      types.push({ name, pattern: renderElement(slot.shape, names, types, false, [s, ...up]) });
      content.push({ kind: 'xml-ref', name, occurs: MULTIPLE });
    } else {
      content.push(renderElement(slot.shape, names, types, slot.seen < s.count, [s, ...up]));
    }
  }
  return el(content);
}

/**
 * A SOAP fault's code (1.1 `faultcode`, 1.2 `Code/Value` in a `Fault`): SOAP's own codes with the
 * Fault's prefix, which is bound to the envelope's namespace, so a stub of the recording answers
 * `soap:Server`, not a made-up name; matching judges a provider's code by SOAP's rules.
 */
function faultCode(s: ElementShape, up: ElementShape[], names: TypeNames, types: TypeDecl[]): Pattern | undefined {
  const v12 = s.local === 'Value' && up[0]?.local === 'Code' && up[1]?.local === 'Fault';
  const fault = s.local === 'faultcode' && up[0]?.local === 'Fault' ? up[0] : v12 ? up[1] : undefined;
  if (!fault) return undefined;
  const locals = v12 ? ['Sender', 'Receiver'] : ['Client', 'Server'];
  // A code in no namespace is not SOAP's (WS-I Basic Profile R1004), but it is what the service sends: recorded as sent, beside
  // SOAP's own, so the recording fits its calls; the matcher takes such a code only where a contract names it exactly.
  const unqualified = unqualifiedCodes(s);
  if (unqualified.length > 0) {
    const name = names.take('RecordedFaultCode');
    types.push({ name, pattern: { kind: 'enum', name, base: 'string', values: [...unqualified, ...(fault.prefix ? locals.map((l) => `${fault.prefix}:${l}`) : [])] } });
    return { kind: 'ref', name };
  }
  if (!fault.prefix) return undefined;
  const name = names.take(v12 ? 'Soap12FaultCode' : 'SoapFaultCode');
  types.push({ name, pattern: { kind: 'enum', name, base: 'qname', values: locals.map((l) => `${fault.prefix}:${l}`) } });
  return { kind: 'ref', name };
}

/** The recorded fault codes of a `faultcode` (or `Code/Value`) shape that have no prefix: in no namespace. */
export function unqualifiedCodes(s: ElementShape): string[] {
  return (s.codes ?? []).filter((c) => c !== '' && !c.includes(':') && /^[^\s()]+$/.test(c));
}

/** A gap between slots (0: after the opening tag, slots.length: before the closing tag) with a tag on each side. */
function textPlace(s: ElementShape): number {
  for (let i = 0; i <= s.slots.length; i++) {
    const before = i === 0 || !s.slots[i - 1].multiple;
    const after = i === s.slots.length || !s.slots[i].multiple;
    if (before && after) return i;
  }
  return -1;
}

/**
 * A JSON shape as a contract JSON pattern: a key missing (or null) in some
 * calls becomes `key?`; kinds that disagree become (anything); an array of
 * objects becomes `["(Item*)"]` with Item declared.
 */
export function renderJson(s: JsonShape, names: TypeNames, types: TypeDecl[], hint: string): Pattern {
  if (s.mixed) return ANYTHING;
  if (s.count === s.nulls) return { kind: 'scalar', type: 'null' };
  switch (s.jsonKind) {
    case 'object': {
      const fields = [...(s.fields ?? new Map<string, { shape: JsonShape; seen: number }>())].map(([key, f]) => {
        const optional = f.seen < s.objects || f.shape.nulls > 0;
        const inner = { ...f.shape, nulls: optional ? 0 : f.shape.nulls, count: optional ? f.shape.count - f.shape.nulls : f.shape.count };
        return { key, optional, pattern: inner.count === 0 ? ANYTHING : renderJson(inner, names, types, key) };
      });
      return { kind: 'object', fields, open: false };
    }
    case 'array': {
      const item = s.item;
      if (!item || item.nulls > 0 || item.mixed) return { kind: 'list', inner: ANYTHING };
      if (item.jsonKind === 'object' || item.jsonKind === 'array') {
        const name = names.take(singular(hint));
        types.push({ name, pattern: renderJson(item, names, types, name) });
        return { kind: 'list', inner: { kind: 'ref', name } };
      }
      return { kind: 'list', inner: { kind: 'scalar', type: item.scalar! } };
    }
    default: {
      const scalar: Pattern = { kind: 'scalar', type: s.scalar! };
      return s.nulls > 0 ? { kind: 'optional', inner: scalar } : scalar;
    }
  }
}

function singular(key: string): string {
  const p = pascal(key) || 'Item';
  if (/ies$/.test(p)) return `${p.slice(0, -3)}y`;
  if (/[^s]s$/.test(p)) return p.slice(0, -1);
  return `${p}Item`;
}
