/** A SoapUI project as plain data: what the importer reads from a project file or a composite project folder. */

export type Properties = ReadonlyMap<string, string>;

/** Where a thing sits in the project: the file and line, and its names (`suite "A" / case "B" / step "C"`). */
export interface Place {
  file: string;
  line?: number;
  path: string;
}

export interface CachedPart {
  url: string;
  content: string;
  /** `http://schemas.xmlsoap.org/wsdl/` or `http://www.w3.org/2001/XMLSchema`. */
  type: string;
}

export interface SoapuiInterface {
  name: string;
  /** `wsdl`, `rest`, `rest_ex`, `messagedrivenservice`, ... (the xsi:type's or the `type` attribute). */
  kind: string;
  soapVersion: '1.1' | '1.2';
  definition: string;
  rootPart?: string;
  parts: CachedPart[];
  operations: { name: string; action?: string }[];
  endpoints: string[];
  place: Place;
}

export interface Assertion {
  type: string;
  name: string;
  /** The configuration's children by name (text), unprefixed as SoapUI writes them. */
  config: Record<string, string>;
  disabled: boolean;
}

export interface RequestCall {
  interface: string;
  operation: string;
  name: string;
  endpoint?: string;
  body: string;
  headers: [string, string][];
  assertions: Assertion[];
  outgoingWss?: string;
  incomingWss?: string;
}

export interface TestStep {
  name: string;
  type: string;
  disabled: boolean;
  request?: RequestCall;
  /** A properties step's own values (`${Step#name}`). */
  properties?: Properties;
  place: Place;
}

export interface TestCase {
  name: string;
  properties: Properties;
  steps: TestStep[];
  scripts: string[];
  place: Place;
}

export interface TestSuite {
  name: string;
  properties: Properties;
  cases: TestCase[];
  scripts: string[];
  place: Place;
}

export interface MockResponse {
  name: string;
  status?: number;
  content: string;
  place: Place;
}

export interface MockOperation {
  name: string;
  interface: string;
  operation: string;
  dispatchStyle: string;
  defaultResponse?: string;
  /** SCRIPT: the Groovy that names the response; XPATH: the XPath whose value does. */
  dispatchPath?: string;
  /** QUERY_MATCH: which response each query (an XPath and the value it must give) picks. */
  queries: { name: string; xpath: string; match: string; response: string }[];
  responses: MockResponse[];
  place: Place;
}

export interface MockService {
  name: string;
  path: string;
  port?: string;
  properties: Properties;
  operations: MockOperation[];
  scripts: string[];
  place: Place;
}

export interface WssEntry {
  type: string;
  username?: string;
  password?: string;
  config: Record<string, string>;
}

export interface WssConfig {
  name: string;
  direction: 'outgoing' | 'incoming';
  entries: WssEntry[];
  place: Place;
}

export interface WssCrypto {
  source: string;
  type: string;
  place: Place;
}

/** Something of the project that does not carry over, by name and place (`Groovy step "Setup"`). */
export interface NotCarried {
  what: string;
  place: Place;
  why?: string;
}

export interface SoapuiProject {
  name: string;
  file: string;
  /** The folder a composite project was read from (undefined for one file). */
  composite: boolean;
  properties: Properties;
  interfaces: SoapuiInterface[];
  suites: TestSuite[];
  mocks: MockService[];
  wss: WssConfig[];
  crypto: WssCrypto[];
  notCarried: NotCarried[];
}

export function placeText(p: Place): string {
  return `${p.file}${p.line !== undefined ? `:${p.line}` : ''}${p.path ? ` (${p.path})` : ''}`;
}
