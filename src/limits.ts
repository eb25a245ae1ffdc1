/**
 * Every bound accord puts on what it reads or builds, in one place, so the
 * limits docs/security.md lists are the ones the code uses. Lowest layer:
 * anything may import it, it imports nothing.
 */

/** Named types nested in one another (XSD types, `(T)` chains, walks over a contract's places). Recursion stops here. */
export const MAX_TYPE_NESTING = 64;

/** JSON nested deeper than this is refused before it is parsed (a recursive matcher would overflow the stack). */
export const MAX_JSON_DEPTH = 256;

/** XML documents: element depth, attributes per element, elements per document. */
export const XML_LIMITS = { maxDepth: 256, maxAttributes: 256, maxElements: 200_000 } as const;

/** A DOCTYPE that only declares, read (never processed) at the start of a WSDL or XSD file: its length in characters. */
export const DOCTYPE_MAX_CHARS = 64 * 1024;

/**
 * SOAP-encoded multi-reference values (`href="#id0"` and `<multiRef id="id0">`, read before matching):
 * elements of the tree a document stands for once its references are read, and its depth. A DAG of
 * shared references can stand for exponentially many elements; above these it is refused as a mismatch.
 */
export const ENCODED_REFERENCE_LIMITS = { expandedElements: 200_000, depth: 256 } as const;

/** A large XML body is parsed this many characters per turn of the event loop (a few ms), so a server keeps answering others. */
export const XML_SLICE = 128 * 1024;

/** Negative tests (opt-in): generated invalid requests kept per scenario (each is one Jest test). */
export const MAX_NEGATIVE_PER_SCENARIO = 32;

/** The answer of an OAuth2 token URL read by the runner; a token response is a few KiB at most. */
export const MAX_TOKEN_RESPONSE_BYTES = 64 * 1024;

/** Parts of one MTOM/XOP (multipart/related) message read; a message with more is not unpacked (and so does not match). */
export const MAX_MIME_PARTS = 1000;

/** MTOM out: element patterns of one body searched for base64Binary content to send as parts; past them the rest stay inline. */
export const MTOM_SCAN_ELEMENTS = 10_000;

/** Occurrence bounds (`specmatic_occurs="2..5"`, XSD minOccurs/maxOccurs) above this are read as unbounded (a maxOccurs) or refused (a minOccurs): generation makes min nodes. */
export const MAX_OCCURS_BOUND = 10_000;

/**
 * XML content models as automata over child names (xs:choice, repeated groups): a bounded repetition is
 * copied `unroll` times, then read as "any number more" (looser, never stricter). Matching a body gives up
 * (reports it as not fitting) above `matchStates`; comparing two contracts skips the exact sequence check
 * (names and bounds are still compared) above `compareStates` states or `compareVisits` pairs visited.
 */
export const CONTENT_AUTOMATON_LIMITS = { unroll: 8, matchStates: 20_000, compareStates: 5_000, compareVisits: 50_000 } as const;

/** Compatibility's overlap rule: nesting beyond which two request patterns are taken to overlap (a "yes" is the safe answer). */
export const MAX_OVERLAP_DEPTH = 64;

/** Generation: nesting beyond which optional and repeated parts are left out (a recursive type must end). */
export const MAX_GENERATE_DEPTH = 24;

/** Generation: XML elements made per body before it keeps to required nodes only (lists in lists would multiply into megabytes). */
export const XML_NODE_BUDGET = 2000;

/** Order reports: above this many (slot, child) cells the cheapest alignment of children to a sequence is not searched. */
export const MAX_ORDER_CELLS = 4_000_000;

/** Log import: aligning a node's children with its shape beyond this many cells falls back to an in-order merge (hostile logs stay linear). */
export const MAX_ALIGN_CELLS = 250_000;

/** The stub's expectation index: JSON levels searched for the plain words an expectation is indexed by (deeper values still count in the full match). */
export const MAX_INDEX_DEPTH = 64;

/**
 * How much accord reads from any one input file (src/files reads them all). A
 * file is read only up to its limit plus one byte, counted as it is read, so a
 * file that lies about its size (/proc files report 0) costs no more than the limit.
 */
export const FILE_LIMITS = {
  /** A contract (`.spec`), read from disk or from a git commit. */
  contractBytes: 16 * 1024 * 1024,
  /** One WSDL or XML Schema file. */
  wsdlBytes: 32 * 1024 * 1024,
  /** Files one WSDL import may pull in through imports and includes. */
  wsdlFiles: 500,
  /** One message checked by `accord validate` (a file or standard input). */
  messageBytes: 16 * 1024 * 1024,
  /** One example file (`<contract>_examples/*.json`). */
  exampleBytes: 16 * 1024 * 1024,
  /** A TLS certificate or key file (`accord stub --tls-cert/--tls-key`, the runner's `tls` files). */
  pemBytes: 1024 * 1024,
  /** `accord.config.json` (or the `accord` key of package.json), or Specmatic's `specmatic.yaml`/`.json`, that `accord contracts` reads. */
  settingsBytes: 1024 * 1024,
  /** One entry of the parsed-contract cache; a bigger one is ignored and the contract parsed again. */
  cacheEntryBytes: 64 * 1024 * 1024,
  /** Symlinks followed one after another inside a git commit before giving up (as the kernel's ELOOP). */
  symlinkHops: 8,
  /** Leading bytes examined to tell text from binary. */
  sniffBytes: 64 * 1024,
} as const;

/** Specmatic's settings in YAML (`specmatic.yaml`): aliases a file may use, as expanded copies (a "billion laughs" file is refused). */
export const SETTINGS_YAML_LIMITS = { aliases: 100 } as const;

/**
 * `accord import soapui`: one project file, or one file of a composite project folder (a 3 MB project
 * with 330 test cases is the largest seen); all the files of a composite project together; how many
 * files such a folder may hold and how deep its folders go; how many example files one import writes.
 */
export const SOAPUI_LIMITS = {
  fileBytes: 64 * 1024 * 1024,
  totalBytes: 256 * 1024 * 1024,
  compositeFiles: 5000,
  compositeDepth: 4,
  examples: 10_000,
} as const;

/**
 * XSD `pattern` facets (from WSDLs and contracts): a longer pattern, deeper groups, a count above
 * `repeat` or repetitions expanding past `expandedSize` characters are refused (the facet is left
 * out of an import, with a note). RE2 itself refuses counts above 1000.
 */
/**
 * WS-Policy read from a WSDL: alternatives formed from one operation's policies (ExactlyOne × All;
 * beyond it, the first ones are taken), and PolicyReferences followed inside one another before the
 * chain is called circular and reported.
 */
export const POLICY_LIMITS = { alternatives: 64, referenceDepth: 8 } as const;

export const XSD_PATTERN_LIMITS = { sourceChars: 4096, nesting: 32, repeat: 1000, expandedSize: 100_000 } as const;

/**
 * Deciding whether one set of pattern facets implies another (`accord compatible`): the states
 * any one automaton built for the question may have. Past it the answer is "not decided", and the
 * comparison falls back to comparing the patterns' texts, with a note saying so.
 */
export const PATTERN_INCLUSION_LIMITS = { automatonStates: 5_000 } as const;

/**
 * The stub's run-time state: requests kept in its journal (the oldest are dropped; one journal
 * shared by every scope), characters of each request body kept there (the rest is cut, and the
 * entry says so), expectations registered at once and the bytes they hold together (each one is
 * bounded by the stub's body limit too); scopes (`/_scope/<id>/`) held at once (past it the least
 * recently used one with neither expectations nor named state is forgotten; when every one has
 * some, a new scope is refused); requests whose choice (and answer) the stub remembers, the longest body so
 * remembered, the longest answer kept with it; named state (scenario-state.ts): machines per scope,
 * states one machine may name, machine and state names held at once by every scope together (a
 * full scope holds 10,000: without it 1,000 full scopes took ~2.8 GB), characters of a machine or
 * state name; characters of the consumer name or test title an expectation set over the API carries
 * (for the export); how long one call of the
 * pass-through (`--passthrough`) to the real service may take, headers and body.
 */
export const STUB_LIMITS = {
  journalEntries: 1000,
  journalBodyChars: 16 * 1024,
  expectations: 10_000,
  expectationBytes: 128 * 1024 * 1024,
  scopes: 1000,
  memoEntries: 1000,
  memoBodyChars: 4 * 1024,
  memoAnswerChars: 16 * 1024,
  stateMachines: 100,
  statesPerMachine: 100,
  stateNames: 100_000,
  stateNameChars: 64,
  setByChars: 500,
  passThroughMs: 30_000,
} as const;

/**
 * Consumer examples (`accord contracts publish` and pull, the provider's replay, `accord compatible
 * --consumers`): files in one folder of consumers' examples walked at once, and folder levels, so a
 * shared repository with a flood of files or a deep tree costs a bounded read; characters of a
 * consumer's name (`--consumer`, the folder `consumers/<name>/`), far below any file system's 255.
 */
export const CONSUMER_EXAMPLE_LIMITS = {
  files: 10_000,
  depth: 32,
  nameChars: 64,
} as const;

/**
 * The largest body accord reads when nothing else is said: a request to the stub
 * (`--max-body-bytes`), a service's answer in a test. One number, so the two cannot drift.
 */
export const DEFAULT_MAX_BODY_BYTES = 10 * 1024 * 1024;

/**
 * Response templates (src/stub/answer/response-template.ts): placeholders in one expectation's response (or one Examples row),
 * characters between one `{{` and its `}}`, steps of one node path, nodes of the request
 * pattern visited to find the node a path names, and characters of one answer made from a
 * template (headers and body; an Examples row's filled cells, and the values placed in its body):
 * counted as it is made, so 256 copies of a large request body stop at the bound instead of making
 * gigabytes. The bound is the largest body accord reads (DEFAULT_MAX_BODY_BYTES): a runner could not
 * read a larger answer anyway.
 */
export const TEMPLATE_LIMITS = { placeholders: 256, expressionChars: 256, pathSegments: 32, patternNodes: 10_000, answerChars: 10 * 1024 * 1024 } as const;

/** How long the runner waits for a service's answer when `ACCORD_TIMEOUT_MS` / `timeoutMs` do not say. */
export const DEFAULT_TIMEOUT_MS = 10_000;

/**
 * Seconds one git call may take (`accord contracts pull`'s fetch, `accord compatible git`'s reads);
 * then git is stopped and the command fails. `ACCORD_GIT_TIMEOUT` (seconds) sets another.
 */
export const GIT_TIMEOUT_SECONDS = 300;

/** Bytes of one git command's output kept (`git log`, `git ls-tree`); a blob is bounded like a file on disk instead. */
export const GIT_OUTPUT_BYTES = 64 * 1024 * 1024;

/**
 * `accord proxy`: what is passed through is streamed and never bounded; what is recorded is.
 * Bytes of each body recorded (a longer one is passed on whole, recorded cut and marked so, and
 * left out of the contract), recorded bytes in all (later calls are forwarded and counted, not
 * recorded), calls recorded; a WSDL or schema answer read whole to point its addresses at the proxy
 * (a bigger one is passed on unchanged); how long calls still under way get when the proxy is
 * stopped before their upstream requests are aborted. With `--check`: exchanges waiting to be checked (past it they
 * are counted as not checked), findings kept for the report (later ones are told and counted), characters of each
 * body a finding keeps. The service's WSDL when the proxy stops: how long it and the documents it imports
 * from its origin (`?xsd=1`) may take in all, and how many of them are fetched.
 */
export const PROXY_LIMITS = {
  recordedBodyBytes: 4 * 1024 * 1024,
  recordedBytes: 256 * 1024 * 1024,
  exchanges: 10_000,
  documentBytes: 32 * 1024 * 1024,
  stopGraceMs: 2000,
  pendingChecks: 1000,
  findings: 1000,
  findingBodyChars: 16 * 1024,
  wsdlFetchMs: 10_000,
  wsdlDocuments: 100,
} as const;

/**
 * Fetching a WSDL served by URL and what it imports (`accord import wsdl <URL>`, `wsdl/fetch.ts`):
 * documents fetched (the WSDL included), bytes of one, bytes of all together, milliseconds for all
 * together, and redirects followed for one (within the origins allowed). `accord proxy` fetches with
 * its own time and document bounds (PROXY_LIMITS.wsdlFetchMs, wsdlDocuments).
 */
export const WSDL_FETCH_LIMITS = { documents: 100, documentBytes: 32 * 1024 * 1024, totalBytes: 64 * 1024 * 1024, totalMs: 30_000, redirects: 5 } as const;

/**
 * WS-Security checking (the stub's `--ws-security`): nonces remembered at once against replays
 * (the oldest are forgotten first) and the longest nonce read, in bytes.
 */
export const WS_SECURITY_LIMITS = {
  nonces: 10_000,
  nonceBytes: 64,
  /** The shortest wsse:Nonce (decoded) taken: what the soap package, zeep and WSS4J write. */
  nonceMinBytes: 16,
  /** A signed request's characters; the signature of a longer one is not checked (refused). */
  signedChars: 1024 * 1024,
  /** References of one SignedInfo (each a distinct part: the Body, a header block, a token). */
  references: 32,
  /** Transforms of one Reference. */
  transforms: 2,
  /** Prefixes of one InclusiveNamespaces PrefixList. */
  inclusivePrefixes: 64,
  /** Characters of the ds:SignatureValue (an RSA-16384 signature is 2732). */
  signatureValueChars: 4096,
  /** Characters of a wsse:BinarySecurityToken's base64 (a certificate). */
  tokenChars: 64 * 1024,
} as const;

/**
 * The HTML report (`accord-contracts/report`, `accord compatible --format html`): characters of one
 * body shown (the rest is cut with a note), lines of one pretty-printed body, characters of one
 * failure message, characters of one contract version shown side by side, and exchanges kept from one
 * test file (later tests are listed with their outcome only).
 */
export const REPORT_LIMITS = { bodyChars: 16 * 1024, bodyLines: 400, messageChars: 8 * 1024, sourceChars: 1024 * 1024, exchangesPerFile: 2000 } as const;
