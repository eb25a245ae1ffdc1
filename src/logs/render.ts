import { escapeAttribute } from '../xml/serialize';
import type { ElementShape } from './infer-xml';
import type { JsonShape } from './infer-json';
import { pascal, type TypeNames } from './names';

/** A `type` declaration a scenario needs: its name and its definition as contract text. */
export interface TypeDecl {
  name: string;
  text: string;
}

/**
 * An element shape as a contract XML fragment with typed placeholders. A run
 * of same-named siblings becomes `(Name*)` with the node declared as type
 * Name; a node missing from some calls gets specmatic_occurs="optional".
 */
export function renderElement(s: ElementShape, names: TypeNames, types: TypeDecl[], optional = false, indent = ''): string {
  const attrs: string[] = [];
  for (const n of s.namespaces) attrs.push(`${n.name}="${attributeText(n.value)}"`);
  const instances = s.count + s.nil;
  for (const a of s.attributes) attrs.push(`${a.name}="(${a.type}${a.seen < instances ? '?' : ''})"`);
  if (optional) attrs.push('specmatic_occurs="optional"');
  if (s.nil > 0) attrs.push('specmatic_nillable="true"');
  const open = `<${s.name}${attrs.map((a) => ` ${a}`).join('')}`;
  if (s.slots.length === 0) {
    if (s.text === undefined) return `${indent}${open}/>`;
    const maybe = s.textSeen < s.count && s.text !== 'string' ? '?' : '';
    return `${indent}${open}>(${s.text}${maybe})</${s.name}>`;
  }
  const inner = indent + '  ';
  // Mixed content (text beside child nodes): the matcher reads an element's texts together, so one
  // placeholder keeps every logged call matching. It must stand between tags: next to a `(Type*)`
  // line the two would read as one text. With no such place, the content is (anything).
  const at = s.text === undefined ? -1 : textPlace(s);
  if (s.text !== undefined && at < 0) return `${indent}${open}>(anything)</${s.name}>`;
  const lines = [`${indent}${open}>`];
  for (const [i, slot] of [...s.slots, undefined].entries()) {
    if (i === at) lines.push(`${inner}(${s.text}${s.textSeen < s.count && s.text !== 'string' ? '?' : ''})`);
    if (!slot) break;
    if (slot.multiple) {
      const name = names.take(slot.local);
      types.push({ name, text: renderElement(slot.shape, names, types) });
      lines.push(`${inner}(${name}*)`);
    } else {
      lines.push(renderElement(slot.shape, names, types, slot.seen < s.count, inner));
    }
  }
  lines.push(`${indent}</${s.name}>`);
  return lines.join('\n');
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

/** An attribute value kept on one line: line breaks and tabs as character references. */
function attributeText(value: string): string {
  return escapeAttribute(value).replace(/[\t\n\r]/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * A JSON shape as a contract JSON pattern: a key missing (or null) in some
 * calls becomes `key?`; kinds that disagree become (anything); an array of
 * objects becomes `["(Item*)"]` with Item declared.
 */
export function renderJson(s: JsonShape, names: TypeNames, types: TypeDecl[], hint: string): unknown {
  if (s.mixed) return '(anything)';
  if (s.count === s.nulls) return '(null)';
  switch (s.jsonKind) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [k, f] of s.fields ?? new Map()) {
        const optional = f.seen < s.objects || f.shape.nulls > 0;
        const inner = { ...f.shape, nulls: optional ? 0 : f.shape.nulls, count: optional ? f.shape.count - f.shape.nulls : f.shape.count };
        out[optional ? `${k}?` : k] = inner.count === 0 ? '(anything)' : renderJson(inner, names, types, k);
      }
      return out;
    }
    case 'array': {
      const item = s.item;
      if (!item || item.nulls > 0 || item.mixed) return ['(anything*)'];
      if (item.jsonKind === 'object' || item.jsonKind === 'array') {
        const name = names.take(singular(hint));
        types.push({ name, text: JSON.stringify(renderJson(item, names, types, name), null, 2) });
        return [`(${name}*)`];
      }
      return [`(${item.scalar}*)`];
    }
    default:
      return `(${s.scalar}${s.nulls > 0 ? '?' : ''})`;
  }
}

function singular(key: string): string {
  const p = pascal(key) || 'Item';
  if (/ies$/.test(p)) return `${p.slice(0, -3)}y`;
  if (/[^s]s$/.test(p)) return p.slice(0, -1);
  return `${p}Item`;
}
