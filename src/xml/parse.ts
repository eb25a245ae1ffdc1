import type { SaxesParser } from 'saxes';
import { AccordError } from '../errors';
import { XML_LIMITS, XML_SLICE } from '../limits';
import { fastParseXml, fastParseXmlInSlices } from './fast-parse';
import { splitName, type XmlElement, type XmlNode } from './tree';

export interface XmlParseLimits {
  /** Deepest element nesting accepted. */
  maxDepth?: number;
  /** Most attributes on one element. */
  maxAttributes?: number;
  /** Most elements in one document. */
  maxElements?: number;
}

export const DEFAULT_XML_LIMITS: Required<XmlParseLimits> = { ...XML_LIMITS };

/**
 * Parses XML without a DTD: a DOCTYPE is refused outright, so no external
 * entity is ever fetched and no entity bomb can expand (SOAP forbids DTDs too).
 * Whitespace-only text and comments are dropped; text is trimmed.
 * Namespace processing is off on purpose: accord matches local names and keeps
 * prefixes as written, so an undeclared prefix in a contract fragment is fine.
 */
export function parseXml(text: string, limits?: XmlParseLimits): XmlElement {
  const resolved = limits ? { ...DEFAULT_XML_LIMITS, ...limits } : DEFAULT_XML_LIMITS;
  // The common case, about twice as fast (fast-parse.ts); anything it does not fully understand, and every error, goes to saxes.
  return fastParseXml(text, resolved) ?? parseXmlWithSaxes(text, limits);
}

/** parseXml for a caller that leaves a text it cannot read alone: undefined for XML accord refuses (an AccordError); a bug still throws. */
export function parseXmlOrUndefined(text: string): XmlElement | undefined {
  try {
    return parseXml(text);
  } catch (e) {
    if (e instanceof AccordError) return undefined;
    throw e;
  }
}

/**
 * parseXml for a server: the same tree or error, parsed in slices of `slice` characters with
 * the event loop free between them, so that a client sending 10 MB does not hold up the others.
 */
export async function parseXmlInSlices(text: string, limits?: XmlParseLimits, slice = XML_SLICE): Promise<XmlElement> {
  const resolved = limits ? { ...DEFAULT_XML_LIMITS, ...limits } : DEFAULT_XML_LIMITS;
  const fast = await fastParseXmlInSlices(text, resolved, slice, nextTurn);
  if (fast) return fast;
  // Its own parser: the shared one may be needed by another request while this one waits.
  const own = createReusable();
  own.busy = true;
  try {
    own.begin(limits ?? {});
    for (let at = 0; at < text.length; at += slice) {
      own.write(text.slice(at, at + slice));
      if (at + slice < text.length) await nextTurn();
    }
    return own.end();
  } catch (e) {
    if (!(e instanceof AccordError)) throw e;
    // Where a slice ends decides which of two checks words some errors (text outside the root):
    // the error is told as a whole parse tells it. That parse stops at the error, as this one did.
    return parseXmlWithSaxes(text, limits);
  } finally {
    own.busy = false;
  }
}

function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** The saxes path alone: what decides every document the fast path leaves alone, and every error. */
export function parseXmlWithSaxes(text: string, limits: XmlParseLimits = {}): XmlElement {
  const state = reusable ?? createReusable();
  // A parse that is already running (a handler parsing XML) gets its own parser.
  const own = state.busy ? createReusable() : state;
  own.busy = true;
  try {
    return own.parse(text, limits);
  } finally {
    own.busy = false;
  }
}

let reusable: ReusableParser | undefined;

interface ReusableParser {
  busy: boolean;
  parse(text: string, limits: XmlParseLimits): XmlElement;
  /** parse, in pieces: begin, write each piece of the text, end. */
  begin(limits: XmlParseLimits): void;
  write(piece: string): void;
  end(): XmlElement;
}

let saxesParser: typeof SaxesParser | undefined;
/** saxes, loaded at the first document the fast path leaves to it, not with this module: a plain stub or test run may never need it. */
function saxes(): typeof SaxesParser {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- lazy on purpose (see above)
  saxesParser ??= (require('saxes') as typeof import('saxes')).SaxesParser;
  return saxesParser;
}

/**
 * One saxes parser and its handlers, reset before every document: building a
 * parser and eight closures per document cost about a third of a small
 * request's parse. The reset calls saxes' own _init (pinned saxes 6.0.0), the
 * same reset saxes does after a document ends, so a document that failed
 * half-way leaves nothing behind.
 */
function createReusable(): ReusableParser {
  const parser = new (saxes())({ xmlns: false, position: true });
  let maxDepth = DEFAULT_XML_LIMITS.maxDepth;
  let maxAttributes = DEFAULT_XML_LIMITS.maxAttributes;
  let maxElements = DEFAULT_XML_LIMITS.maxElements;
  let stack: XmlElement[] = [];
  let root: XmlElement | undefined;
  let elements = 0;
  let attributes = 0;
  let failure: AccordError | undefined;

  const fail = (message: string): never => {
    if (!failure) failure = new AccordError('ACCORD_ERR_XML', message, { line: parser.line, column: parser.column });
    throw failure;
  };

  parser.on('doctype', () => fail('a DOCTYPE is not allowed in XML payloads (no DTDs, no entities)'));
  // Counted as they are read (reset at each opentag): an element with a million attributes fails at
  // the limit, not after reading them all. The tag's name is read from saxes' tag under construction:
  // an 'opentagstart' handler as well would give it, but that extra handler makes every parse ~5x
  // slower (measured on saxes 6.0.0 and Node 20).
  parser.on('attribute', () => {
    if (++attributes > maxAttributes) fail(`element <${(parser as unknown as { tag?: { name?: string } }).tag?.name ?? '?'}> has more than ${maxAttributes} attributes`);
  });
  parser.on('opentag', (tag) => {
    attributes = 0;
    elements++;
    if (elements > maxElements) fail(`more than ${maxElements} elements`);
    if (stack.length >= maxDepth) fail(`elements nested deeper than ${maxDepth} levels`);
    const names = Object.keys(tag.attributes);
    if (names.length > maxAttributes) fail(`element <${tag.name}> has more than ${maxAttributes} attributes`);
    const { prefix, local } = splitName(tag.name);
    const el: XmlElement = {
      type: 'element',
      name: tag.name,
      prefix,
      local,
      attributes: names.map((name) => ({ name, ...splitName(name), value: String((tag.attributes as Record<string, string>)[name]) })),
      children: [],
      line: parser.line,
    };
    if (stack.length > 0) stack[stack.length - 1].children.push(el);
    else if (root) fail('more than one root element');
    else root = el;
    stack.push(el);
  });
  parser.on('closetag', () => {
    stack.pop();
  });
  const onText = (value: string) => {
    if (stack.length === 0) {
      if (value.trim() !== '') fail('text outside the root element');
      return;
    }
    const trimmed = value.trim();
    if (trimmed === '') return;
    const children: XmlNode[] = stack[stack.length - 1].children;
    const last = children[children.length - 1];
    if (last && last.type === 'text') last.value += trimmed;
    else children.push({ type: 'text', value: trimmed });
  };
  parser.on('text', onText);
  parser.on('cdata', onText);
  parser.on('error', (err) => {
    throw failure ?? new AccordError('ACCORD_ERR_XML', cleanSaxesMessage(err.message), { line: parser.line, column: parser.column });
  });

  const guarded = (f: () => void) => {
    try {
      f();
    } catch (e) {
      stack = [];
      if (e instanceof AccordError) throw e;
      throw new AccordError('ACCORD_ERR_XML', cleanSaxesMessage((e as Error).message), { line: parser.line, column: parser.column });
    }
  };
  const self: ReusableParser = {
    busy: false,
    parse(text, limits) {
      self.begin(limits);
      self.write(text);
      return self.end();
    },
    begin(limits) {
      ({ maxDepth, maxAttributes, maxElements } = { ...DEFAULT_XML_LIMITS, ...limits });
      stack = [];
      root = undefined;
      elements = 0;
      attributes = 0;
      failure = undefined;
      (parser as unknown as { _init(): void })._init();
    },
    write(piece) {
      guarded(() => parser.write(piece));
    },
    end() {
      guarded(() => parser.close());
      stack = [];
      if (!root) throw new AccordError('ACCORD_ERR_XML', 'no root element', {});
      const result = root;
      root = undefined;
      return result;
    },
  };
  if (!reusable) reusable = self;
  return self;
}

/** saxes prefixes messages with "[file:]L:C: "; the location is carried separately. */
function cleanSaxesMessage(message: string): string {
  return message.replace(/^(?:[^:\n]*:)?\d+:\d+: /, '');
}

export function looksLikeXml(text: string): boolean {
  return /^\s*</.test(text);
}
