import { MAX_JSON_DEPTH } from '../limits';

/**
 * JSON.parse with a nesting limit. JSON.parse itself takes any depth, but
 * everything after it (matching against a recursive type, generating,
 * reporting) walks values recursively, and a hostile body nested 100,000 deep
 * would overflow the stack there. So depth is counted first, in one linear pass
 * that skips strings, and a deeper text is refused before it is parsed: the
 * same rule as XML's (256 levels).
 */

export class JsonTooDeep extends Error {
  constructor(readonly limit: number) {
    super(`JSON nested deeper than ${limit} levels`);
    this.name = 'JsonTooDeep';
  }
}

/**
 * Parses `text`; throws SyntaxError for bad JSON (as JSON.parse does) and JsonTooDeep past `maxDepth`.
 * A leading byte order mark is skipped, as XML parsers skip it: editors on Windows and some services
 * write one, and JSON.parse alone refuses it.
 */
export function parseJson(text: string, maxDepth = MAX_JSON_DEPTH): unknown {
  const json = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (tooDeep(json, maxDepth)) throw new JsonTooDeep(maxDepth);
  return JSON.parse(json);
}

/**
 * parseJson with what is wrong as a value: `problem` completes "… is <problem>" ("not valid JSON: …",
 * "JSON nested deeper than 256 levels"), so each caller says only where the text came from; `syntax` is false for a text refused for its depth.
 */
export function readJson(text: string, maxDepth = MAX_JSON_DEPTH): { value: unknown } | { problem: string; syntax: boolean } {
  try {
    return { value: parseJson(text, maxDepth) };
  } catch (e) {
    if (e instanceof JsonTooDeep) return { problem: e.message, syntax: false };
    if (e instanceof SyntaxError) return { problem: `not valid JSON: ${e.message}`, syntax: true };
    throw e;
  }
}

function tooDeep(text: string, maxDepth: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c /* \ */) i++;
      else if (c === 0x22 /* " */) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b /* [ */ || c === 0x7b /* { */) {
      if (++depth > maxDepth) return true;
    } else if (c === 0x5d /* ] */ || c === 0x7d /* } */) depth--;
  }
  return false;
}
