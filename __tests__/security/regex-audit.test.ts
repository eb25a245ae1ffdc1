import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { soapActionHeader } from '../../src/logs/extract-cxf';
import { cleanContext } from '../../src/logs/extract-envelopes';
import { SCALARS } from '../../src/pattern/scalars/index';
import { cpuMsSync } from '../helpers/timing';

/**
 * Every regular expression in src/ is audited (docs/security.md, "Regular
 * expressions"): V8's engine backtracks, so an expression that can read a run of
 * characters in many ways, or an unanchored one whose every attempt reads to the
 * end, is quadratic (or worse) on hostile text. Here each one meets its worst
 * cases, tailored to its shape: long runs of what it repeats, ended by what
 * makes it fail. Each case is decided at 16 KB and 128 KB (where an old,
 * quadratic expression already takes seconds: the test fails there rather than
 * hang for an hour) and then at 1 MB, in bounded CPU time.
 *
 * The guard that stays: the expressions are read from the source, and one that
 * is not in AUDITED (a new one, or a changed one) fails the test until it is
 * audited here and in docs/security.md.
 */

const ROOT = path.join(__dirname, '..', '..');
const SRC = path.join(ROOT, 'src');
// CPU milliseconds for one replace over a worst case of up to 1 MiB. A linear expression takes a few to a few
// hundred (half a million matches, with garbage collection on a loaded machine: 306 ms was seen in CI); a
// quadratic one takes tens of seconds at 128 KiB already, so the bound has room for load and still catches it.
const BOUND_MS = 1000;
const SIZES = [1 << 14, 1 << 17, 1 << 20];

/** `prefix`, then `unit` repeated to about `size` characters, then `suffix` (by default a character no expression wants). */
type Hostile = (size: number) => string;
const h =
  (unit: string, prefix = '', suffix = '\0'): Hostile =>
  (size) =>
    prefix + unit.repeat(Math.ceil(size / unit.length)) + suffix;

/** File (from src/) → regular expression literal as written → its worst cases. */
const AUDITED: Record<string, Record<string, Hostile[]>> = {
  'http/ws-addressing.ts': {
    [String.raw`/^"|"$/g`]: [h('"'), h('a')],
  },
  'http/ws-security-check.ts': {
    [String.raw`/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,9})?(Z|[+-]\d\d:\d\d)?$/`]: [h('1', '2024-01-01T00:00:00.'), h('0')],
    [String.raw`/(Z|[+-]\d\d:\d\d)$/`]: [h('+00:0'), h('Z', '', 'x')],
    [String.raw`/\s+/g`]: [h(' ', '', 'x'), h(' a')],
    [String.raw`/\n/g`]: [h('\n'), h('a')],
    [String.raw`/^[A-Za-z0-9+/]*={0,2}$/`]: [h('A', '', '==='), h('A', '', '!')],
  },
  'http/ws-security-signature.ts': {
    [String.raw`/\S/`]: [h(' ')],
    [String.raw`/\s+/g`]: [h(' ', '', 'x'), h(' a')],
    [String.raw`/^[A-Za-z0-9+/]+={0,2}$/`]: [h('A', '', '==='), h('A', '', '!')],
    [String.raw`/\s+/`]: [h(' ', 'a', 'b'), h(' a')],
    [String.raw`/^#[^\s#'"()]{1,256}$/`]: [h('a', '#'), h('#')],
  },
  'http/ws-security-settings.ts': {
    [String.raw`/\\/g`]: [h('\\'), h('a')],
    [String.raw`/^"|"$/g`]: [h('"'), h('a')],
  },
  'http/ws-security.ts': {
    [String.raw`/-----BEGIN CERTIFICATE-----([A-Za-z0-9+/=\s]+)-----END CERTIFICATE-----/`]: [
      h('-----BEGIN CERTIFICATE-----AAAA'),
      h('A', '-----BEGIN CERTIFICATE-----', '-----END CERTIFICATE----'),
    ],
    [String.raw`/\s+/g`]: [h(' ', '', 'x'), h(' a')],
  },
  'http/xop-write.ts': {
    [String.raw`/\s+/g`]: [h(' ', '', 'x'), h(' a')],
    [String.raw`/^[A-Za-z0-9+/]*={0,2}$/`]: [h('A', '', '==='), h('A', '', '!')],
    [String.raw`/;\s*action\s*=\s*"?([^";]*)"?/i`]: [h('; action='), h(' ', ';', 'x'), h('a', ';action="', '')],
  },
  'runner/soap-extras.ts': {
    [String.raw`/[\s>]/`]: [h('a')],
  },
  'runner/states.ts': {
    [String.raw`/^\.\//`]: [h('./')],
  },
  'contract/print/pattern.ts': {
    [String.raw`/^[A-Za-z_][\w.-]*$/`]: [h('a', '', '!')],
    [String.raw`/^[^\s:]+$/`]: [h('a', '', ':')],
    [String.raw`/\s/`]: [h('a')],
    [String.raw`/--/g`]: [h('-')],
    [String.raw`/[\r\n]+/g`]: [h('\n'), h('\r\n')],
    [String.raw`/[\t\n\r]/g`]: [h('\t')],
    [String.raw`/[\r\n]/`]: [h('a')],
    [String.raw`/^[<{[]/`]: [h('<')],
  },
  'contract/print/contract.ts': {
    [String.raw`/[\r\n]/`]: [h('a')],
    [String.raw`/[\u0000-\u001f\u007f]/`]: [h('a')],
    [String.raw`/"""/g`]: [h('""'), h('"')],
    [String.raw`/\\/g`]: [h('\\')],
    [String.raw`/\|/g`]: [h('|')],
    [String.raw`/\r?\n/g`]: [h('\r')],
    [String.raw`/[\u0000-\u001f\u007f]/g`]: [h('\u0001')],
    [String.raw`/^@\S+$/`]: [h('a', '@', ' ')],
  },
  'compat/links.ts': {
    [String.raw`/^[a-zA-Z]:/`]: [h('a')],
  },
  'cli/commands/import-log.ts': {
    [String.raw`/(\.gz)?$/`]: [h('.gz', '', 'x'), h('.')],
    [String.raw`/\.[^.]*$/`]: [h('.', '', 'x'), h('a', '.', '.x')],
  },
  'cli/commands/import.ts': {
    [String.raw`/^[a-z][a-z0-9+.-]+:\/\//i`]: [h('a', '', ':/x')],
    [String.raw`/\.[^.]*$/`]: [h('.', '', 'x'), h('a', '.', '.x')],
  },
  'cli/commands/stub.ts': {
    [String.raw`/^\d+$/`]: [h('1', '', 'x')],
  },
  'compat/messages.ts': {
    [String.raw`/\{(path|name|older|newer)\}/g`]: [h('{path'), h('{')],
  },
  'compat/naming.ts': {
    [String.raw`/^(.+)_(v?)(\d+)(\.[A-Za-z]+)$/`]: [h('_1.a', 'x', '!'), h('_v1'), h('1', 'a_', '.a!'), h('a', 'a_1.', '_')],
  },
  'compat/report.ts': {
    [String.raw`/^\n+/`]: [h('\n', '', 'x')],
  },
  'contract/build.ts': {
    [String.raw`/^\(\$[\w.]+\)$/`]: [h('a', '($', ')x')],
  },
  'contract/steps.ts': {
    [String.raw`/\s/`]: [h('a')],
    [String.raw`/^\d{3}$/`]: [h('1')],
    [String.raw`/^(\S+)(?:\s+(\S.*))?$/`]: [h(' ', 'a', 'x\ry'), h(' x', 'a', '\ry'), h('a', '', ' \r')],
    [String.raw`/^([A-Za-z_][\w.-]*)(?:\s+([\s\S]*))?$/`]: [h('a', '', '!'), h(' ', 'a', '\n')],
    [String.raw`/^([A-Za-z_][\w.-]*)\s+\(([\w-]+)(\??)\)\s+values\s+(\S.*)$/`]: [h(' ', 'A (string) values', 'x\u2028y'), h(' x', 'A (string) values', '\ry'), h(' ', 'A', '(')],
    [String.raw`/^(\S+)\s+(\S.*)$/`]: [h(' ', 'a', 'x\ry'), h(' x', 'a', '\ry')],
    [String.raw`/\s+/`]: [h(' ', 'a', 'a'), h(' a')],
  },
  'contract/gherkin.ts': {
    [String.raw`/^#\s*language\s*:\s*([a-zA-Z_-]+)$/`]: [h(' ', '#', 'x'), h(' ', '#language', '!'), h('a', '# language: ', '!')],
  },
  'contract/gherkin-hints.ts': {
    [String.raw`/^\(\d+:\d+\): /`]: [h('1', '(', ':1)')],
    [String.raw`/^([^\s:|#@"*][^:]{0,40}?)\s*:/`]: [h('a', 'S', ''), h(' ', 'Scenario', ''), h('a', 'S', ' x'), h(' ', 'x ', 'x')],
    [String.raw`/^(\S+)(?:\s+(\S+))?/`]: [h('a'), h(' ', 'a'), h(' ', 'a', 'b'), h('a', 'a ', '')],
  },
  'example/service.ts': {
    [String.raw`/^\/pets\/(\d+)$/`]: [h('1', '/pets/', 'x')],
  },
  'files/decode.ts': {
    [String.raw`/^<\?xml[^>]*encoding\s*=\s*["']([A-Za-z0-9._-]+)["']/`]: [h(' ', '<?xml', ''), h('encoding="', '<?xml '), h('a', '<?xml encoding="', '')],
  },
  'http/oauth2.ts': {
    [String.raw`/^[\x20-\x7e]{1,64}$/`]: [h('a', '', '\n')],
    [String.raw`/[\r\n\0]/`]: [h('a')],
  },
  'runner/config.ts': {
    [String.raw`/[^A-Za-z0-9]+/g`]: [h('-'), h('a-')],
    [String.raw`/^[A-Za-z_][A-Za-z0-9_]*$/`]: [h('a', '', '-')],
    [String.raw`/^(authorization|proxy-authorization|cookie)$|key|token|secret|passw/i`]: [h('authorization'), h('ke'), h('a')],
    [String.raw`/^[!#$%&'*+.^_\x60|~0-9A-Za-z-]+$/`]: [h('a', '', ' ')],
    [String.raw`/[\r\n\0]/`]: [h('a')],
  },
  'http/match-multipart.ts': {
    [String.raw`/^\s*multipart\/form-data\s*(;|$)/i`]: [h(' '), h(' ', 'multipart/form-data', 'x')],
    [String.raw`/;\s*boundary\s*=\s*(?:"([^"]+)"|([^\s;]+))/i`]: [h(';boundary="'), h('; '), h(' ', ';boundary=', ';')],
    [String.raw`/;\s*name\s*=\s*(?:"([^"]*)"|([^\s;]+))/i`]: [h(';name="'), h('; '), h(' ', ';name=', ';')],
  },
  'http/content-type.ts': {
    [String.raw`/^[\w.+-]+\/[\w.+-]+$/`]: [h('a'), h('a', 'a/', '/')],
  },
  'http/multipart.ts': {
    [String.raw`/\r?\n/`]: [h('\r')],
  },
  'http/xop.ts': {
    [String.raw`/^\s*multipart\/related\s*;/i`]: [h(' '), h(' ', 'multipart/related', 'x')],
    [String.raw`/;\s*action\s*=/i`]: [h(';'), h(' ', ';', 'x'), h(' ', '; action', 'x')],
    [String.raw`/<(?:([A-Za-z_][\w.-]*):)?Include(\s[^<>]*?)(?:\/>|>\s*<\/(?:[A-Za-z_][\w.-]*:)?Include\s*>)/g`]: [
      h('<a'),
      h('a', '<'),
      h(' ', '<Include', ''),
      h('<Include ', ''),
      h(' ', '<x:Include a>', 'x'),
      h(' ', '<Include a>', '</Include'),
    ],
    [String.raw`/\shref\s*=\s*(["'])cid:([^"'<>]*)\1/`]: [h(' href='), h(' ', ' href', ''), h('a', ' href="cid:', '')],
  },
  'logs/decode.ts': {
    [String.raw`/Response$/`]: [h('Response', '', 'x')],
  },
  'logs/envelope.ts': {
    [String.raw`/<(?:([A-Za-z_][\w.-]*):)?Envelope(?=[\s>/])/g`]: [h('<a'), h('a', '<', ':Envelop'), h('<a:Envelope')],
    [String.raw`/\s/`]: [h('a')],
    [String.raw`/\b(request|response|req|resp|fault)\b/gi`]: [h('request'), h('req ')],
    [String.raw`/(Request|Response|Result|Req|Resp|Input|Output)$/`]: [h('Request', '', 'x'), h('Re')],
  },
  'logs/extract-cxf.ts': {
    [String.raw`/(Inbound|Outbound) Message\s*$/`]: [h(' ', 'Inbound Message', 'x'), h('Inbound Message ')],
    [String.raw`/\b(REQ_IN|REQ_OUT|RESP_IN|RESP_OUT|FAULT_IN|FAULT_OUT)\s*$/`]: [h(' ', 'REQ_IN', 'x'), h('REQ_IN ')],
    [String.raw`/^-{20,}\s*$/`]: [h('-', '', 'x'), h(' ', '-'.repeat(20), 'x')],
    [String.raw`/^(ID|Address|Response-Code|Encoding|Http-Method|Content-Type|Headers|Messages|Payload):\s?(.*)$/`]: [h('a', 'ID: ', '\nx')],
    [String.raw`/^\s+(Address|HttpMethod|Content-Type|ResponseCode|ExchangeId|ServiceName|PortName|PortTypeName|FullContentFile|Headers|Payload):\s?(.*)$/`]: [
      h(' ', '', 'x'),
      h('a', ' Address: ', '\nx'),
    ],
    [String.raw`/truncated/i`]: [h('truncate')],
    [String.raw`/^\((.*)\)$/`]: [h(')', '(', 'x'), h('a', '(', ')\nx')],
    [String.raw`/^\d{3}$/`]: [h('1')],
    [String.raw`/(?:^|[{,\s])SOAPAction=/gi`]: [h(',SOAPAction='), h(' SOAPActio')],
  },
  'logs/extract-envelopes.ts': {
    [String.raw`/\bfor\s+request\b/i`]: [h(' ', 'for', 'x'), h('for requestx ')],
    [String.raw`/=\\"/`]: [h('=\\')],
    [String.raw`/\s/`]: [h('a')],
  },
  'logs/extract-har.ts': {
    [String.raw`/^\s*\{\s*"log"\s*:/`]: [h(' ', '{', 'x'), h(' ')],
    [String.raw`/[/+]json\b/`]: [h('/json'), h('+jso')],
  },
  'logs/extractor.ts': {
    [String.raw`/^(\d{4}-\d{2}-\d{2}[ T]\d|\[\d{4}-\d{2}-\d{2}|\[?\d{2}:\d{2}:\d{2}|[A-Z][a-z]{2} \d{1,2}, \d{4} |(TRACE|DEBUG|INFO|WARN|WARNING|ERROR|FATAL|SEVERE|FINE|FINER|FINEST)\b)/`]:
      [h('1'), h('[1'), h('TRACE')],
  },
  'logs/import-log.ts': {
    [String.raw`/[\\/]/`]: [h('a')],
  },
  'logs/names.ts': {
    [String.raw`/[^A-Za-z0-9]+/`]: [h('-', 'a', 'a'), h('-a')],
    [String.raw`/^\d/`]: [h('1')],
    [String.raw`/(Request|Response)$/`]: [h('Request', '', 'x')],
  },
  'logs/operations.ts': {
    [String.raw`/^\(([^:]+):[^)]+\)$/`]: [h(':', '(a', ')x'), h('a', '(', ':'), h('a', '(a:', ')x')],
    [String.raw`/^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/`]: [h('a')],
    [String.raw`/^\d+$/`]: [h('1', '', 'x')],
    [String.raw`/[^A-Za-z0-9]/g`]: [h('-')],
    [String.raw`/^[A-Za-z]/`]: [h('a')],
    [String.raw`/ies$/`]: [h('ies', '', 'x')],
    [String.raw`/([^s])s$/`]: [h('as', '', 'x')],
  },
  'http/forward.ts': {
    [String.raw`/[/\\]/`]: [h('a')],
    [String.raw`/%([0-9a-f]{2})/gi`]: [h('%'), h('%2'), h('%2e')],
  },
  'http/redact.ts': {
    [String.raw`/^(authorization|proxy-authorization|cookie|set-cookie|cookie2|set-cookie2)$|session|token|api-?key|secret|passw|credential|^x-auth/i`]: [
      h('authorization', '', 'x'),
      h('api-'),
      h('sessio'),
    ],
    [String.raw`/(?<![\d])\d(?:[ -]?\d){12,18}(?![\d])/g`]: [h('1'), h('1 '), h('1-'), h('1 ', 'x', '1'), h('4111111111111111 ')],
    [String.raw`/\d/g`]: [h('1')],
    [String.raw`/(password|passwd|passphrase|secret|apikey|api_key|token)$|^(pwd|pin|cvv|cvc|sid|auth|authorization)$|password|session|cookie|credential|secret|access_?key|private_?key/i`]:
      [h('passw'), h('token', '', 'x'), h('sessio'), h('cooki'), h('credentia'), h('access_'), h('private')],
  },
  'proxy/proxy.ts': {
    [String.raw`/^[A-Za-z0-9.\-:[\]]{1,255}$/`]: [h('a'), h('[', '', '/')],
    [String.raw`/^(wsdl|xsd|singlewsdl)(=|$)/i`]: [h('wsdl', 'singlewsdl', 'x')],
  },
  'logs/render.ts': {
    [String.raw`/^[^\s()]+$/`]: [h('a', '', ' '), h('a')],
    [String.raw`/ies$/`]: [h('ies', '', 'x')],
    [String.raw`/[^s]s$/`]: [h('as', '', 'x')],
  },
  'logs/scalar.ts': {
    [String.raw`/^-?(0|[1-9]\d*)(\.\d+)?$/`]: [h('1', '1', 'x'), h('1', '1.', 'x')],
  },
  'logs/scan-text.ts': {
    [String.raw`/^\s*<\?xml[^>]*\?>\s*$/`]: [h(' ', '', 'x'), h('?', '<?xml', 'x'), h(' ', '<?xml?>', 'x'), h('?>', '<?xml', 'x')],
  },
  'logs/write-contract.ts': {
    [String.raw`/[\u0000-\u001f\u007f]/`]: [h('a')],
    [String.raw`/^\(.*\)$/`]: [h(')', '(', 'x')],
  },
  'pattern/compare/json.ts': {
    [String.raw`/^[./]/`]: [h('.')],
  },
  'pattern/compare/index.ts': {
    [String.raw`/(?<![^./\s[\]])([^./\s[\]]+)(\[\*\]|\[\d+\])?$/`]: [h('a', '', '.'), h('a['), h('1', 'a[', ''), h('a', '', '[1')],
  },
  'pattern/describe.ts': {
    [String.raw`/\)$/`]: [h(')', '', 'x')],
  },
  'pattern/json-pattern.ts': {
    [String.raw`/([{,]\s*)([A-Za-z_$][\w$-]*\??)\s*:/g`]: [h(' ', '{', 'x'), h('a', ',', '!'), h(', a ', '', '!'), h('{a?'), h(' ', '{ a', '?')],
  },
  'pattern/placeholder.ts': {
    [String.raw`/^[A-Za-z_][\w.-]*$/`]: [h('a', '', '!')],
    [String.raw`/^dictionary\s+(\S+)\s+(\S+)$/`]: [h(' ', 'dictionary', 'x'), h('a ', 'dictionary '), h('a', 'dictionary a ', ' b')],
    [String.raw`/^(string|number):\s+(\S+)$/`]: [h(' ', 'string:', ''), h('a', 'string: ', ' x')],
    [String.raw`/\s/`]: [h('a')],
  },
  'pattern/scalars/index.ts': {
    [String.raw`/^-?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/`]: [h('1', '', 'x'), h('1', '1.', 'x'), h('1', '.', 'x'), h('1', '1e', 'x'), h('1', '-', '.')],
    [String.raw`/^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])(Z|[+-]\d{2}:\d{2})?$/`]: [h('1'), h('1', '2020-01-01+', 'x')],
    [String.raw`/^([01]\d|2[0-3]):[0-5]\d(:[0-5]\d(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/`]: [h('1', '00:00:00.', 'x')],
    [String.raw`/^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])[T ]([01]\d|2[0-3]):[0-5]\d(:[0-5]\d(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/`]: [h('1', '2020-01-01T00:00:00.', 'x')],
    [String.raw`/^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/`]: [h('a')],
    [String.raw`/^[a-zA-Z][a-zA-Z0-9+.-]*:\/\/\S+$/`]: [h('a', '', ':'), h('a', 'a://', ' ')],
    [String.raw`/\s/`]: [h('a')],
  },
  'pattern/scalars/temporal.ts': {
    [String.raw`/^(-?\d{4,})-(\d{2})-(\d{2})()()()(Z|[+-]\d{2}:?\d{2})?$/`]: [h('1', '', 'x'), h('1', '2024-01-01T00:00:00.'), h('1', '00:00:'), h('-')],
    [String.raw`/^(-?\d{4,})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2}(?:\.\d{1,9})?))?(Z|[+-]\d{2}:?\d{2})?$/`]: [
      h('1', '', 'x'),
      h('1', '2024-01-01T00:00:00.'),
      h('1', '00:00:'),
      h('-'),
    ],
    [String.raw`/^()()()(\d{2}):(\d{2})(?::(\d{2}(?:\.\d{1,9})?))?(Z|[+-]\d{2}:?\d{2})?$/`]: [h('1', '', 'x'), h('1', '2024-01-01T00:00:00.'), h('1', '00:00:'), h('-')],
    [String.raw`/^(-?\d{4,})()()()()()(Z|[+-]\d{2}:?\d{2})?$/`]: [h('1', '', 'x'), h('1', '2024-01-01T00:00:00.'), h('1', '00:00:'), h('-')],
    [String.raw`/^(-?\d{4,})-(\d{2})()()()()(Z|[+-]\d{2}:?\d{2})?$/`]: [h('1', '', 'x'), h('1', '2024-01-01T00:00:00.'), h('1', '00:00:'), h('-')],
    [String.raw`/^()--(\d{2})()()()()(Z|[+-]\d{2}:?\d{2})?$/`]: [h('1', '', 'x'), h('1', '2024-01-01T00:00:00.'), h('1', '00:00:'), h('-')],
    [String.raw`/^()--(\d{2})-(\d{2})()()()(Z|[+-]\d{2}:?\d{2})?$/`]: [h('1', '', 'x'), h('1', '2024-01-01T00:00:00.'), h('1', '00:00:'), h('-')],
    [String.raw`/^()()---(\d{2})()()()(Z|[+-]\d{2}:?\d{2})?$/`]: [h('1', '', 'x'), h('1', '2024-01-01T00:00:00.'), h('1', '00:00:'), h('-')],
    [String.raw`/^(-)?P(?:(\d{1,9})Y)?(?:(\d{1,9})M)?(?:(\d{1,9})D)?(?:T(?:(\d{1,9})H)?(?:(\d{1,9})M)?(?:(\d{1,9}(?:\.\d{1,9})?)S)?)?$/`]: [
      h('1', 'P', 'x'),
      h('1Y', 'P'),
      h('1', 'PT1.', 'S'),
    ],
  },
  'pattern/scalars/equal.ts': {
    [String.raw`/^\+/`]: [h('+'), h('1')],
    [String.raw`/^\d{4}-/`]: [h('1')],
    [String.raw`/(Z|[+-]\d\d:?\d\d)$/`]: [h('+00:0'), h('+0'), h('Z', '', 'x')],
  },
  'runner/row-values.ts': {
    [String.raw`/^ \(Examples row \S+, column [^)]*\)$/`]: [h('a', ' (Examples row '), h('a', ' (Examples row 1, column ', ')x'), h(' (Examples row 1, column ')],
  },
  'runner/coverage.ts': {
    [String.raw`/^"|"$/g`]: [h('"'), h('a')],
    [String.raw`/;\s*action="?([^";]+)"?/i`]: [h(' ', ';'), h(';'), h('a', ';action='), h('; action', '', '')],
  },
  'shared/config.ts': {
    [String.raw`/^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])(\..*)?$/i`]: [h('a', 'con.'), h('.', 'con')],
  },
  'compat/wsdl-versions.ts': {
    [String.raw`/[\\/]/`]: [h('a')],
  },
  'http/client.ts': {
    [String.raw`/^\[|\]$/g`]: [h('['), h(']'), h('a', '[', ']')],
    [String.raw`/^ERR_SSL_(?:SSLV3|TLSV1|TLSV13)_ALERT_([A-Z_]+)$/`]: [h('A', 'ERR_SSL_TLSV13_ALERT_'), h('_', 'ERR_SSL_')],
  },
  'logs/misfits.ts': {
    [String.raw`/^\s*[#@]/`]: [h(' '), h(' ', '', '#')],
    [String.raw`/^\s*(Scenario|Scenario Outline|Example|Scenario Template):/`]: [h(' '), h(' ', '', 'Scenario')],
    [String.raw`/^\s*(Given|When|Then|And|But|\*)\s+(\S.*)$/`]: [h(' ', 'Given'), h(' ', 'Given', 'a\rb'), h('a', 'Given ', '\r '), h(' ')],
    [String.raw`/^Examples:/`]: [h('a')],
    [String.raw`/^(status\s|response-body\b|response-header\b)/`]: [h('a'), h(' ', 'status')],
    [String.raw`/^(type|enum)\s+(\S+)/`]: [h(' ', 'type'), h('a', 'type ')],
    [String.raw`/^\s*([#@]|$)/`]: [h(' ', '', 'x'), h(' ')],
    [String.raw`/^request-body\s+\((\w+)\)\s*$/`]: [h(' ', 'request-body'), h('a', 'request-body ('), h(' ', 'request-body (a)', 'x')],
  },
  'wsdl/write.ts': {
    [String.raw`/\s/`]: [h('a')],
  },
  'pattern/scalars/facets.ts': {
    [String.raw`/^[A-Za-z]+$/`]: [h('a', '', '=')],
    [String.raw`/^\d{1,9}$/`]: [h('1', '', 'x')],
    [String.raw`/^[\w:.+-]{1,64}$/`]: [h('a', '', ' ')],
    [String.raw`/[\t\n\r]/g`]: [h('\t')],
    [String.raw`/^([+-]?)(\d*)(?:\.(\d*))?$/`]: [h('1', '', 'x'), h('1', '1.', 'x'), h('1', '-', '.')],
  },
  'pattern/scalars/xsd.ts': {
    [String.raw`/^[+-]?\d+$/`]: [h('1', '', 'x')],
    [String.raw`/^[+-]?(?:\d+(?:\.\d*)?|\.\d+)$/`]: [h('1', '', 'x'), h('1', '1.', 'x'), h('1', '.', 'x')],
    [String.raw`/^(?:[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?|[+-]?INF|NaN)$/`]: [h('1', '', 'x'), h('1', '1.', 'x'), h('1', '1e', 'x')],
    [String.raw`/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/][AQgw]==|[A-Za-z0-9+/]{2}[AEIMQUYcgkosw048]=)?$/`]: [h('AAAA', '', 'A='), h('A', '', '!')],
    [String.raw`/^(?:[0-9a-fA-F]{2})*$/`]: [h('a', '', 'x'), h('ab', '', 'a')],
    [String.raw`/^-?P(?:\d+Y)?(?:\d+M)?(?:\d+D)?(?:T(?:\d+H)?(?:\d+M)?(?:\d+(?:\.\d+)?S)?)?$/`]: [h('1', 'P', 'x'), h('1', 'PT', 'x'), h('1', 'PT1.', 'x')],
    [String.raw`/^-?\d{4,}(?:Z|[+-](?:0\d|1[0-4]):[0-5]\d)?$/`]: [h('1', '', 'x')],
    [String.raw`/^-?\d{4,}-(?:0[1-9]|1[0-2])(?:Z|[+-](?:0\d|1[0-4]):[0-5]\d)?$/`]: [h('1', '', 'x')],
    [String.raw`/^--(?:0[1-9]|1[0-2])(?:Z|[+-](?:0\d|1[0-4]):[0-5]\d)?$/`]: [h('1', '--', 'x')],
    [String.raw`/^--(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])(?:Z|[+-](?:0\d|1[0-4]):[0-5]\d)?$/`]: [h('1', '--', 'x')],
    [String.raw`/^---(?:0[1-9]|[12]\d|3[01])(?:Z|[+-](?:0\d|1[0-4]):[0-5]\d)?$/`]: [h('1', '---', 'x')],
    [String.raw`/^[a-zA-Z]{1,8}(?:-[a-zA-Z0-9]{1,8})*$/`]: [h('-a', 'a', '!'), h('a', '', '!')],
  },
  'pattern/scalars/xsd-regex.ts': {
    [String.raw`/\p{L}+/gu`]: [h('a'), h('1'), h(' ')],
    [String.raw`/\p{Lu}+/gu`]: [h('a'), h('1'), h(' ')],
    [String.raw`/\p{Ll}+/gu`]: [h('a'), h('1'), h(' ')],
    [String.raw`/\p{Lt}+/gu`]: [h('a'), h('1'), h(' ')],
    [String.raw`/\p{Lm}+/gu`]: [h('a'), h('1'), h(' ')],
    [String.raw`/\p{Lo}+/gu`]: [h('a'), h('1'), h(' ')],
    [String.raw`/\p{M}+/gu`]: [h('a'), h('1'), h(' ')],
    [String.raw`/\p{Mn}+/gu`]: [h('a'), h('1'), h(' ')],
    [String.raw`/\p{Mc}+/gu`]: [h('a'), h('1'), h(' ')],
    [String.raw`/\p{Me}+/gu`]: [h('a'), h('1'), h(' ')],
    [String.raw`/\p{N}+/gu`]: [h('a'), h('1'), h(' ')],
    [String.raw`/\p{Nd}+/gu`]: [h('a'), h('1'), h(' ')],
    [String.raw`/\p{Nl}+/gu`]: [h('a'), h('1'), h(' ')],
    [String.raw`/\p{No}+/gu`]: [h('a'), h('1'), h(' ')],
    [String.raw`/\p{P}+/gu`]: [h('a'), h('1'), h(' ')],
    [String.raw`/\p{Pc}+/gu`]: [h('a'), h('1'), h(' ')],
    [String.raw`/\p{Pd}+/gu`]: [h('a'), h('1'), h(' ')],
    [String.raw`/\p{Ps}+/gu`]: [h('a'), h('1'), h(' ')],
    [String.raw`/\p{Pe}+/gu`]: [h('a'), h('1'), h(' ')],
    [String.raw`/\p{Pi}+/gu`]: [h('a'), h('1'), h(' ')],
    [String.raw`/\p{Pf}+/gu`]: [h('a'), h('1'), h(' ')],
    [String.raw`/\p{Po}+/gu`]: [h('a'), h('1'), h(' ')],
    [String.raw`/\p{Z}+/gu`]: [h('a'), h('1'), h(' ')],
    [String.raw`/\p{Zs}+/gu`]: [h('a'), h('1'), h(' ')],
    [String.raw`/\p{Zl}+/gu`]: [h('a'), h('1'), h(' ')],
    [String.raw`/\p{Zp}+/gu`]: [h('a'), h('1'), h(' ')],
    [String.raw`/\p{S}+/gu`]: [h('a'), h('1'), h(' ')],
    [String.raw`/\p{Sm}+/gu`]: [h('a'), h('1'), h(' ')],
    [String.raw`/\p{Sc}+/gu`]: [h('a'), h('1'), h(' ')],
    [String.raw`/\p{Sk}+/gu`]: [h('a'), h('1'), h(' ')],
    [String.raw`/\p{So}+/gu`]: [h('a'), h('1'), h(' ')],
    [String.raw`/\p{C}+/gu`]: [h('a'), h('1'), h(' ')],
    [String.raw`/\p{Cc}+/gu`]: [h('a'), h('1'), h(' ')],
    [String.raw`/\p{Cf}+/gu`]: [h('a'), h('1'), h(' ')],
    [String.raw`/\p{Co}+/gu`]: [h('a'), h('1'), h(' ')],
    [String.raw`/\p{Cn}+/gu`]: [h('a'), h('1'), h(' ')],
  },
  'pattern/xml-pattern.ts': {
    [String.raw`/^(specmatic|qontract)_(occurs|nillable|type)$/`]: [h('specmatic_')],
    [String.raw`/\([^()]*\)/g`]: [h('('), h('a', '('), h('(a')],
    [String.raw`/\s+/g`]: [h(' ', '', 'x')],
  },
  'printable.ts': {
    [String.raw`/[\0-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff\ud800-\udfff]/gu`]: [h('\u001b'), h('a'), h('\ud83d\ude00')],
    [String.raw`/[\0-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff\ud800-\udfff]/gu`]: [h('\u001b'), h('a'), h('\ud83d\ude00')],
    [String.raw`/"/g`]: [h('"')],
  },
  'compat/html.ts': {
    [String.raw`/\r?\n/`]: [h('\r')],
  },
  'runner/transform.ts': {
    [String.raw`/\r?\n/`]: [h('\r')],
    [String.raw`/^\s*/`]: [h(' ', '', 'x')],
    [String.raw`/[^\t]/g`]: [h('a')],
    [String.raw`/[\\/]/`]: [h('a')],
  },
  'stub/contracts.ts': {
    [String.raw`/\.wsdl$/i`]: [h('.wsdl', '', 'x')],
  },
  'stub/answer/malformed.ts': {
    [String.raw`/^HPE_[A-Z_]+$/`]: [h('A', 'HPE_', 'x')],
  },
  'http/closeness.ts': {
    [String.raw`/[/.[]/`]: [h('a')],
  },
  'wsdl/address.ts': {
    [String.raw`/^[a-z][a-z0-9+.-]*:\/\//i`]: [h('a', '', ':/')],
    [String.raw`/[()\s]/`]: [h('a')],
  },
  'wsdl/attributes.ts': {
    [String.raw`/^(?:(?:specmatic|qontract)_(?:occurs|nillable|type)|xmlns|.*\.opt)$/`]: [h('.opt', '', 'x'), h('a.'), h('specmatic_')],
    [String.raw`/^\(.*\)$/`]: [h(')', '(', 'x')],
  },
  'wsdl/derivation.ts': {
    [String.raw`/\[[\d,\s]*\]$/g`]: [h('[1,'), h('1', '['), h('[', '', 'x')],
    [String.raw`/\[\]$/`]: [h('[]', '', 'x')],
  },
  'wsdl/dom.ts': {
    [String.raw`/entity not found:\s*&([^;\s]{1,200});/`]: [h(' ', 'entity not found:'), h('a', 'entity not found: &'), h('entity not found:')],
    [String.raw`/^<!(?:ENTITY|ATTLIST|ELEMENT|NOTATION)\s/`]: [h('a', '<!ENTITY'), h(' ', '<!')],
    [String.raw`/\s/`]: [h('a')],
    [String.raw`/[^\r\n]/g`]: [h('a'), h('\n')],
    [String.raw`/&#(?:x([0-9a-fA-F]{1,8})|([0-9]{1,10}));/g`]: [h('&#'), h('&#x1'), h('1', '&#'), h('f', '&#x')],
    [String.raw`/^\[xmldom [^\]]*\]\s*/`]: [h('a', '[xmldom ', '')],
  },
  'wsdl/emit.ts': {
    [String.raw`/--/g`]: [h('-')],
    [String.raw`/^\w+/`]: [h('a')],
  },
  'wsdl/import.ts': {
    [String.raw`/\.[^.]+$/`]: [h('.'), h('.a')],
  },
  'wsdl/load.ts': {
    [String.raw`/^[a-z]:[\\/]/i`]: [h('a')],
    [String.raw`/^[a-z][a-z0-9+.-]+:/i`]: [h('a', '', '/')],
  },
  'wsdl/fetch.ts': {
    [String.raw`/\.[^.]*$/`]: [h('.', '', 'x'), h('a', '.', '.x')],
    [String.raw`/[^A-Za-z0-9]/g`]: [h('!')],
    [String.raw`/[^A-Za-z0-9._-]/g`]: [h('!')],
    [String.raw`/^[._-]+/`]: [h('.', '', 'a')],
  },
  'wsdl/names.ts': {
    [String.raw`/^[A-Za-z_][A-Za-z0-9_.-]*$/`]: [h('a', '', '!')],
    [String.raw`/[^A-Za-z0-9_.-]/g`]: [h('!')],
    [String.raw`/(?<!\.)\.+$/`]: [h('.', '', 'x'), h('a.')],
    [String.raw`/^[A-Za-z_]/`]: [h('a')],
    [String.raw`/^xml/i`]: [h('xml')],
    [String.raw`/^[\p{L}_][\p{L}\p{N}\p{Mn}\p{Mc}._\-\u00B7\u203F\u2040]*$/u`]: [h('a', '', '!'), h('é', '', '!')],
  },
  'wsdl/simple-types.ts': {
    [String.raw`/\s+/`]: [h(' ', 'a', 'b')],
  },
  'wsdl/wsdl11.ts': {
    [String.raw`/^urn:/i`]: [h('urn'), h('a')],
    [String.raw`/\s+/`]: [h(' ', '', 'x'), h(' a')],
  },
  'wsdl/xsd.ts': {
    [String.raw`/\s+/`]: [h(' ', '', 'x'), h(' a')],
  },
  'stub/decide/shape.ts': {
    [String.raw`/[&\0-\x08\x0B-\x1F\uD800-\uDFFF\uFFFE\uFFFF]/`]: [h('a')],
  },
  'xml/fast-parse.ts': {
    [String.raw`/[\0-\x08\x0B\x0C\x0D\x0E-\x1F\uD800-\uDFFF\uFFFE\uFFFF]/`]: [h('a')],
    [String.raw`/]]>|<!(?!--)|<\?(?!xml[ \t\n])|&#/`]: [h('<?xm'), h(']]'), h('<!--'), h('<?xml ')],
    [String.raw`/<\?xml[ \t\n]+version[ \t\n]*=[ \t\n]*(["'])1\.0\1(?:[ \t\n]+encoding[ \t\n]*=[ \t\n]*(["'])[A-Za-z][A-Za-z0-9._-]*\2)?(?:[ \t\n]+standalone[ \t\n]*=[ \t\n]*(["'])(?:yes|no)\3)?[ \t\n]*\?>/y`]:
      [h(' ', '<?xml', ''), h(' ', '<?xml version="1.0"', ''), h('a', '<?xml version="1.0" encoding="a', ''), h(' ', '<?xml version="1.0" encoding="a"', '?')],
    [String.raw`/^[ \t\n]*$/`]: [h(' ', '', 'x')],
    [String.raw`/&(lt|gt|amp|quot|apos);/g`]: [h('&lt'), h('&')],
  },
  'xml/parse.ts': {
    [String.raw`/^(?:[^:\n]*:)?\d+:\d+: /`]: [h('a', '', ':1:1'), h(':1'), h('1', 'a:', ':1:')],
    [String.raw`/^\s*</`]: [h(' ', '', 'x')],
  },
  'xml/serialize.ts': {
    [String.raw`/[&<>]/`]: [h('a')],
    [String.raw`/[&<"]/`]: [h('a')],
    [String.raw`/[&<>]/g`]: [h('<')],
    [String.raw`/[&<"]/g`]: [h('&')],
  },
};

interface Found {
  file: string;
  line: number;
  literal: string;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? sourceFiles(path.join(dir, e.name)) : e.name.endsWith('.ts') ? [path.join(dir, e.name)] : []));
}

/** Every regular expression literal in src/, and every RegExp built at run time (which cannot be audited from here). */
function expressionsInSource(): { literals: Found[]; built: Found[] } {
  const literals: Found[] = [];
  const built: Found[] = [];
  for (const full of sourceFiles(SRC)) {
    const file = path.relative(SRC, full).split(path.sep).join('/');
    const sf = ts.createSourceFile(full, readFileSync(full, 'utf8'), ts.ScriptTarget.Latest, true);
    const visit = (n: ts.Node): void => {
      const line = sf.getLineAndCharacterOfPosition(n.getStart(sf)).line + 1;
      if (n.kind === ts.SyntaxKind.RegularExpressionLiteral) literals.push({ file, line, literal: n.getText(sf) });
      if ((ts.isNewExpression(n) || ts.isCallExpression(n)) && n.expression.getText(sf) === 'RegExp') built.push({ file, line, literal: n.getText(sf) });
      ts.forEachChild(n, visit);
    };
    visit(sf);
  }
  return { literals, built };
}

/** The expression as written, made global: it is then tried at every position, the worst of test, exec, split and replace. */
function compile(literal: string): RegExp {
  const end = literal.lastIndexOf('/');
  const flags = literal.slice(end + 1);
  return new RegExp(literal.slice(1, end), flags.includes('g') ? flags : `${flags}g`);
}

describe('the audit of regular expressions covers every one in src/', () => {
  const { literals, built } = expressionsInSource();

  it('finds them (the scanner works)', () => {
    expect(literals.length).toBeGreaterThan(100);
  });

  it('every expression in src/ is audited here; audit a new one (worst cases below, a reason in docs/security.md)', () => {
    const unaudited = literals.filter((f) => !AUDITED[f.file]?.[f.literal]).map((f) => `src/${f.file}:${f.line} ${f.literal}`);
    expect(unaudited).toEqual([]);
  });

  it('no expression is built at run time from a string (it could not be audited, and input could end up inside it)', () => {
    expect(built.map((f) => `src/${f.file}:${f.line} ${f.literal}`)).toEqual([]);
  });

  it('the audit lists nothing that is gone from the source', () => {
    const present = new Set(literals.map((f) => `${f.file} ${f.literal}`));
    const stale = Object.entries(AUDITED).flatMap(([file, res]) =>
      Object.keys(res)
        .filter((lit) => !present.has(`${file} ${lit}`))
        .map((lit) => `src/${file} ${lit}`),
    );
    expect(stale).toEqual([]);
  });

  it('docs/security.md names every audited expression, with its file', () => {
    const doc = readFileSync(path.join(ROOT, 'docs', 'security.md'), 'utf8');
    const missing = Object.entries(AUDITED).flatMap(([file, res]) => [
      ...(doc.includes(`src/${file}`) ? [] : [`src/${file}`]),
      ...Object.keys(res).filter((lit) => !doc.includes(`\`${lit}\``)),
    ]);
    expect(missing).toEqual([]);
  });
});

describe('each regular expression decides its worst cases in linear time', () => {
  for (const [file, res] of Object.entries(AUDITED)) {
    for (const [literal, cases] of Object.entries(res)) {
      it(`src/${file} ${literal}`, () => {
        const re = compile(literal);
        cases.forEach((make, i) => {
          for (const size of SIZES) {
            const input = make(size);
            const ms = cpuMsSync(() => input.replace(re, ''));
            expect({ case: i, size, ms: ms < BOUND_MS ? 'fast' : ms }).toEqual({ case: i, size, ms: 'fast' });
          }
        });
      });
    }
  }
});

describe('the scanners written by hand where an expression could not be linear', () => {
  const cases: [string, (input: string) => unknown, Hostile[]][] = [
    ['(email) in src/pattern/scalars/index.ts', (t) => SCALARS.email.test(t), [h('.', 'a@', '@'), h('a.', 'a@', ' '), h('a', '', '@'), h('@')]],
    ['cleanContext in src/logs/extract-envelopes.ts', cleanContext, [h('<?xml'), h('<?xml', '', '>'), h(' ', 'x', 'x'), h(' ['), h('<?xml ?>')]],
    ['soapActionHeader in src/logs/extract-cxf.ts', soapActionHeader, [h(',SOAPAction=['), h(',SOAPAction="'), h(',SOAPAction=[', '', ']'), h('a', 'SOAPAction=', '')]],
  ];
  for (const [name, decide, hostile] of cases) {
    it(name, () => {
      hostile.forEach((make, i) => {
        for (const size of SIZES) {
          const input = make(size);
          const ms = cpuMsSync(() => decide(input));
          expect({ case: i, size, ms: ms < BOUND_MS ? 'fast' : ms }).toEqual({ case: i, size, ms: 'fast' });
        }
      });
    });
  }
});

/**
 * The rewrites keep what the old expressions meant: on every short string over
 * an alphabet of the characters that matter, old and new agree. (The old ones
 * are fine as oracles on short strings.)
 */
describe('the linear rewrites accept exactly what the old expressions accepted', () => {
  /** Every string of up to `maxLength` pieces of the alphabet (characters, or longer tokens). */
  function* strings(alphabet: string | string[], maxLength: number): Generator<string> {
    let level = [''];
    yield '';
    for (let n = 1; n <= maxLength; n++) {
      const next: string[] = [];
      for (const s of level) for (const c of alphabet) next.push(s + c);
      yield* next;
      level = next;
    }
  }
  const agree = (alphabet: string | string[], maxLength: number, older: (s: string) => unknown, newer: (s: string) => unknown) => {
    const differ: string[] = [];
    for (const s of strings(alphabet, maxLength)) if (JSON.stringify(older(s)) !== JSON.stringify(newer(s))) differ.push(s);
    expect(differ.slice(0, 5)).toEqual([]);
  };

  it('(number)', () => {
    const old = /^-?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
    agree(
      '1.-e+x',
      6,
      (s) => old.test(s),
      (s) => SCALARS.number.test(s),
    );
  });

  it('(email)', () => {
    const old = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
    agree(
      'a@. ',
      7,
      (s) => old.test(s),
      (s) => SCALARS.email.test(s),
    );
  });

  it('the Examples header, enum and form-field lines of a contract (on trimmed text, as build.ts gives them)', () => {
    const pairs: [string, RegExp, RegExp][] = [
      ['', /^(\S+)(?:\s+(.*))?$/, /^(\S+)(?:\s+(\S.*))?$/],
      ['', /^(\S+)\s+(.+)$/, /^(\S+)\s+(\S.*)$/],
      ['A (string) values', /^([A-Za-z_][\w.-]*)\s+\(([\w-]+)(\??)\)\s+values\s+(.+)$/, /^([A-Za-z_][\w.-]*)\s+\(([\w-]+)(\??)\)\s+values\s+(\S.*)$/],
    ];
    for (const [prefix, older, newer] of pairs)
      agree(
        'a \r\t',
        7,
        (s) => older.exec((prefix + s).trim()),
        (s) => newer.exec((prefix + s).trim()),
      );
  });

  it('the last name of a path (compare.ts) and trailing dots (wsdl/names.ts)', () => {
    agree(
      'a.[]1*/ ',
      5,
      (s) => /([^./\s[\]]+)(\[\*\]|\[\d+\])?$/.exec(s)?.[1],
      (s) => /(?<![^./\s[\]])([^./\s[\]]+)(\[\*\]|\[\d+\])?$/.exec(s)?.[1],
    );
    agree(
      'a.',
      8,
      (s) => s.replace(/\.+$/, ''),
      (s) => s.replace(/(?<!\.)\.+$/, ''),
    );
  });

  it('cleanContext', () => {
    agree(['<?xml', '?>', '>', '?', ' ', '[', 'a'], 5, (s) => s.replace(/<\?xml[^>]*\?>/g, '').replace(/[[\s]+$/, ''), cleanContext);
    for (const s of ['a <?xml version="1.0"?> [ ', '<?xml?><?xml a?>b', '<?xml <?xml ?> x', 'x<?xml>y?>z ']) {
      expect(cleanContext(s)).toBe(s.replace(/<\?xml[^>]*\?>/g, '').replace(/[[\s]+$/, ''));
    }
  });

  it('soapActionHeader', () => {
    const old = (headers: string) => {
      const listed = /(?:^|[{,\s])SOAPAction=\[([^\]]*)\]/i.exec(headers);
      if (listed) return listed[1].trim();
      const plain = /(?:^|[{,\s])SOAPAction=("[^"]*"|[^,}]*)/i.exec(headers);
      return plain ? plain[1].trim() : undefined;
    };
    agree(
      '[]",} ',
      4,
      (s) => old(`{SOAPAction=${s}`),
      (s) => soapActionHeader(`{SOAPAction=${s}`),
    );
    agree(
      '[]",} ',
      3,
      (s) => old(`{SOAPAction=${s},soapaction=${s}`),
      (s) => soapActionHeader(`{SOAPAction=${s},soapaction=${s}`),
    );
    for (const s of ['{SOAPAction=["urn:x"], content-type=[text/xml]}', '{SOAPAction="urn:x", Accept=text/xml}', 'x,SOAPAction=a, SOAPAction=[b]', 'SOAPAction=', '{}']) {
      expect(soapActionHeader(s)).toBe(old(s));
    }
  });
});
