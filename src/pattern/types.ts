/**
 * The pattern language as plain data. Every pattern can be matched
 * (match.ts), generated (generate.ts) and compared (compare.ts); each of those
 * is a pure function over these values plus a Scope that resolves type names.
 */
export type ScalarType =
  'number' | 'string' | 'boolean' | 'null' | 'date' | 'datetime' | 'time' | 'uuid' | 'email' | 'url' | 'anything' | 'empty' | 'number-in-string' | XsdScalarType;

/** XSD built-in types with a lexical space of their own (pattern/scalars/xsd.ts). */
export type XsdScalarType =
  | 'integer'
  | 'long'
  | 'int'
  | 'short'
  | 'byte'
  | 'nonNegativeInteger'
  | 'positiveInteger'
  | 'nonPositiveInteger'
  | 'negativeInteger'
  | 'unsignedLong'
  | 'unsignedInt'
  | 'unsignedShort'
  | 'unsignedByte'
  | 'decimal'
  | 'float'
  | 'double'
  | 'base64Binary'
  | 'hexBinary'
  | 'duration'
  | 'gYear'
  | 'gYearMonth'
  | 'gMonth'
  | 'gMonthDay'
  | 'gDay'
  | 'anyURI'
  | 'qname'
  | 'ncname'
  | 'xml-name'
  | 'xml-id'
  | 'xml-idref'
  | 'nmtoken'
  | 'nmtokens'
  | 'token'
  | 'normalizedString'
  | 'language';

/**
 * Facets (XSD's word) narrowing a scalar: `(string maxLength=18 pattern="[A-Z0-9]{18}")`.
 * Lengths count characters (octets for base64Binary and hexBinary, items for a list);
 * bounds and digits apply to numbers. Every `pattern` must match the whole text (XSD syntax).
 */
export interface Facets {
  length?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string[];
  min?: string;
  max?: string;
  minExclusive?: string;
  maxExclusive?: string;
  totalDigits?: number;
  fractionDigits?: number;
}

export interface ScalarPattern {
  kind: 'scalar';
  type: ScalarType;
  facets?: Facets;
}

/** `(list T)`: text of items separated by spaces, each a T (XSD xs:list). Length facets count the items. */
export interface TextListPattern {
  kind: 'text-list';
  item: Pattern;
  facets?: Facets;
}

/** `(A | B)`: a text that is a value of one of the members (XSD xs:union). */
export interface UnionPattern {
  kind: 'union';
  members: Pattern[];
}

/** A value written literally in the contract: must be equal. */
export interface LiteralPattern {
  kind: 'literal';
  value: string | number | boolean | null;
  /**
   * Equal as a value of this type rather than as text (`10.50` is `10.5` for a decimal): an
   * Examples cell held against a provider's answer (contract/narrow-row.ts). Never written in a contract.
   */
  as?: ScalarType;
}

export interface EnumPattern {
  kind: 'enum';
  name: string;
  base: ScalarType;
  values: string[];
}

/** `(Name)`: a named type, resolved through the Scope when used. */
export interface RefPattern {
  kind: 'ref';
  name: string;
}

/** `(X?)` or a JSON key ending in `?`: the value may be absent (or null in JSON). */
export interface OptionalPattern {
  kind: 'optional';
  inner: Pattern;
}

/** `(X*)`: any number of X (a JSON array, or repeated XML nodes in place). */
export interface ListPattern {
  kind: 'list';
  inner: Pattern;
}

export interface JsonField {
  key: string;
  optional: boolean;
  pattern: Pattern;
}

export interface ObjectPattern {
  kind: 'object';
  fields: JsonField[];
  /** `"...": ""` in the contract: keys beyond the listed ones are allowed. */
  open: boolean;
}

/** A JSON array written out item by item; an item may be a list pattern (`"(Pet*)"`) spreading in place. */
export interface ArrayPattern {
  kind: 'array';
  items: Pattern[];
}

export interface DictionaryPattern {
  kind: 'dictionary';
  key: Pattern;
  value: Pattern;
}

/** How many times a node occurs: minOccurs..maxOccurs (max Infinity when unbounded); see occurs.ts. */
export interface Occurs {
  readonly min: number;
  readonly max: number;
}

export interface XmlAttributePattern {
  name: string;
  local: string;
  optional: boolean;
  pattern: Pattern;
}

export interface XmlNamespace {
  name: string;
  value: string;
}

export interface XmlElementPattern {
  kind: 'xml';
  name: string;
  prefix: string;
  local: string;
  /** `xmlns` declarations as written; never matched, kept for generation. */
  namespaces: XmlNamespace[];
  attributes: XmlAttributePattern[];
  content: XmlContent[];
  occurs: Occurs;
  nillable: boolean;
  /** `xs:anyAttribute` (`specmatic_any_attribute="##any"`): attributes beyond the declared ones are accepted. */
  anyAttribute?: string;
  /** `specmatic_type="T"`: attributes and content come from type T's root. */
  typeRef?: string;
  /** `specmatic_derived="tns:Circle tns:Square"`: types derived from this one that an instance may name with `xsi:type`. */
  derived?: DerivedType[];
  /** `specmatic_abstract="true"`: an instance must name one of the derived types with `xsi:type`. */
  abstract?: boolean;
  /**
   * `specmatic_order="any"`: the child nodes may come in any order, each matched by its name (XSD's
   * `xs:all`; the accessors of a SOAP-encoded struct, rpc/encoded parameters, SOAP 1.1 section 5.4.1).
   * Generation writes them in the order given.
   */
  anyOrder?: boolean;
  /**
   * `specmatic_name="any"`: the node is matched whatever its name, as the member of a SOAP-encoded array
   * (SOAP 1.1 section 5.4.2: member names are not significant; .NET names them after their type,
   * `<string>`, `<Quote>`). Generation writes the name given.
   */
  anyName?: boolean;
  /**
   * `specmatic_xsi_type="tns:Order"`: the type an encoded message names this node's value with
   * (SOAP 1.1 section 5: a struct or a value of a named simple type, in an array or not, as PHP SoapServer and
   * Axis 1 type every accessor; the importer writes it for a WSDL with an encoded operation); generation writes it
   * as `xsi:type` inside SOAP-encoding scope (pattern/generate/soap-encoding.ts). Never matched.
   */
  xsiType?: string;
  line?: number;
  /**
   * Comments for people reading the contract (`<!-- ... -->`), each printed
   * before `content[at]` (at the end when `at` is content.length). Written by
   * the importers; never matched, and the contract parser drops them.
   */
  comments?: XmlComment[];
}

/**
 * A type derived from an element's type (XSD extension or restriction), as `specmatic_derived` lists it:
 * `tns:Circle` (the contract type `Circle`) or `tns:Circle=ns1_Circle` when the contract named it otherwise.
 * An instance whose `xsi:type` has the local name `local` is matched against contract type `type`.
 */
export interface DerivedType {
  /** The QName generated into `xsi:type` (its prefix declared where the contract declares its namespaces). */
  xsiType: string;
  local: string;
  type: string;
}

export interface XmlComment {
  at: number;
  text: string;
}

/** Text content of an element: a scalar, literal, enum or a ref resolving to one. */
export interface XmlTextPattern {
  kind: 'xml-text';
  pattern: Pattern;
}

/** `(T)`, `(T*)`, `(T?)` written as element content: T's node(s) stand here. */
export interface XmlRefContent {
  kind: 'xml-ref';
  name: string;
  occurs: Occurs;
}

/**
 * `xs:choice`, written `<specmatic_choice>`: each occurrence holds the nodes of exactly one
 * option; an option is a sequence (one element, or a `<specmatic_option>` group of several).
 */
export interface XmlChoicePattern {
  kind: 'xml-choice';
  options: XmlContent[][];
  occurs: Occurs;
}

/** `xs:any`, written `<specmatic_any/>`: any element(s) here, within bounds and the namespace constraint. */
export interface XmlWildcardPattern {
  kind: 'xml-any';
  occurs: Occurs;
  /** XSD's constraint as written: `##any`, `##other`, or a list of URIs, `##local` and `##targetNamespace`. */
  namespace: string;
  /** What `##other` and `##targetNamespace` refer to. */
  targetNamespace?: string;
  /** `strict` and `lax`: an element found is checked against its declaration when `elements` has one of its name; `skip`: never. */
  processContents: 'strict' | 'lax' | 'skip';
  /** Declared elements the contract knows for this wildcard (written inside `<specmatic_any>`); the first is what generation writes. */
  elements?: XmlElementPattern[];
}

export type XmlContent = XmlElementPattern | XmlTextPattern | XmlRefContent | XmlChoicePattern | XmlWildcardPattern;

/** `(name:type)` inside a body: the value is taken from the Examples column `name` when there is one. */
export interface LookupPattern {
  kind: 'lookup';
  key: string;
  inner: Pattern;
}

export type Pattern =
  | LookupPattern
  | ScalarPattern
  | TextListPattern
  | UnionPattern
  | LiteralPattern
  | EnumPattern
  | RefPattern
  | OptionalPattern
  | ListPattern
  | ObjectPattern
  | ArrayPattern
  | DictionaryPattern
  | XmlElementPattern;

/** A pattern with its `(Name)` refs followed: what `resolve` returns. */
export type ResolvedPattern = Exclude<Pattern, RefPattern>;

/** Named types visible to a scenario: the Background's, overridden by the scenario's own. */
export interface Scope {
  types: ReadonlyMap<string, Pattern>;
}
