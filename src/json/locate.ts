/**
 * Where a JSON text first goes wrong, as an offset, for a message that says file:line:column.
 * V8's JSON.parse names the position for some mistakes only ("Unexpected token '}', ... is not
 * valid JSON" has none), so this scans the text once, by RFC 8259's grammar, without building
 * anything: iterative (an explicit stack, no recursion), linear in the text. Called only on a text
 * JSON.parse refused; undefined when it finds nothing wrong.
 */
export function jsonErrorOffset(text: string): number | undefined {
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  /** The containers open around `i`: '{' or '['. */
  const stack: string[] = [];
  const ws = () => {
    while (i < text.length && (text[i] === ' ' || text[i] === '\t' || text[i] === '\n' || text[i] === '\r')) i++;
  };
  /** A string at `i`: true when it closes. */
  const string = (): boolean => {
    if (text[i] !== '"') return false;
    i++;
    while (i < text.length) {
      const c = text.charCodeAt(i);
      if (c === 0x22) {
        i++;
        return true;
      }
      if (c < 0x20) return false;
      if (c === 0x5c) {
        const e = text[i + 1];
        if (e === 'u') {
          for (let k = 2; k < 6; k++) if (!isHex(text[i + k])) return ((i += k), false);
          i += 6;
        } else if (e !== undefined && '"\\/bfnrt'.includes(e)) i += 2;
        else return ((i += 1), false);
      } else i++;
    }
    return false;
  };
  const number = (): boolean => {
    const start = i;
    if (text[i] === '-') i++;
    if (text[i] === '0') i++;
    else if (isDigit(text[i])) while (isDigit(text[i])) i++;
    else return false;
    if (text[i] === '.') {
      i++;
      if (!isDigit(text[i])) return false;
      while (isDigit(text[i])) i++;
    }
    if (text[i] === 'e' || text[i] === 'E') {
      i++;
      if (text[i] === '+' || text[i] === '-') i++;
      if (!isDigit(text[i])) return false;
      while (isDigit(text[i])) i++;
    }
    return i > start;
  };
  /** A value at `i`; an object or array is opened (pushed) and read by the loop. */
  const value = (): boolean => {
    ws();
    const c = text[i];
    if (c === '{' || c === '[') {
      stack.push(c);
      i++;
      ws();
      if (text[i] === (c === '{' ? '}' : ']')) {
        stack.pop();
        i++;
        return true;
      }
      return c === '{' ? member() : value();
    }
    if (c === '"') return string();
    for (const word of ['true', 'false', 'null']) if (text.startsWith(word, i)) return ((i += word.length), true);
    return number();
  };
  const member = (): boolean => {
    ws();
    if (!string()) return false;
    ws();
    if (text[i] !== ':') return false;
    i++;
    return value();
  };
  if (!value()) return i;
  while (stack.length > 0) {
    ws();
    const open = stack[stack.length - 1];
    if (text[i] === ',') {
      i++;
      if (!(open === '{' ? member() : value())) return i;
    } else if (text[i] === (open === '{' ? '}' : ']')) {
      stack.pop();
      i++;
    } else return i;
  }
  ws();
  return i < text.length ? i : undefined;
}

function isDigit(c: string | undefined): boolean {
  return c !== undefined && c >= '0' && c <= '9';
}

function isHex(c: string | undefined): boolean {
  return c !== undefined && ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'));
}
