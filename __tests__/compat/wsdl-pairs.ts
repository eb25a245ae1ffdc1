/**
 * Labelled pairs of small WSDL versions: a base service and, for each change,
 * the newer version and the verdict accord must give (`rules`, and the notes
 * of changes that break no one, such as a fault added). The WSDL check is the
 * importer's contract compared by the exact pattern comparison, so these pin
 * both: facets, occurrence bounds, xs:choice, optional SOAP headers and fault
 * scenarios (issue 13) each have their cases.
 */
export interface WsdlCase {
  label: string;
  /** The older WSDL from the base, when it is not the base itself. */
  older?: (base: string) => string;
  /** The newer WSDL (and any extra files beside it) from the base. */
  newer: (base: string) => string;
  files?: Record<string, string>;
  /** Rule ids found; [] means compatible. */
  rules: string[];
  /** Notes given (changes that break no one, such as a fault added). */
  notes?: string[];
}

const TNS = 'http://example.com/pets';

export function baseWsdl(opts: { tns?: string; schema?: string; address?: string } = {}): string {
  const tns = opts.tns ?? TNS;
  return `<?xml version="1.0" encoding="UTF-8"?>
<definitions name="PetService" targetNamespace="${tns}"
  xmlns="http://schemas.xmlsoap.org/wsdl/" xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/"
  xmlns:tns="${tns}" xmlns:xsd="http://www.w3.org/2001/XMLSchema">
  <types>
${opts.schema ?? schema(tns)}
  </types>
  <message name="GetPetIn"><part name="parameters" element="tns:getPet"/></message>
  <message name="GetPetOut"><part name="parameters" element="tns:getPetResponse"/></message>
  <message name="ListPetsIn"><part name="parameters" element="tns:listPets"/></message>
  <message name="ListPetsOut"><part name="parameters" element="tns:listPetsResponse"/></message>
  <portType name="PetPort">
    <operation name="getPet"><input message="tns:GetPetIn"/><output message="tns:GetPetOut"/></operation>
    <operation name="listPets"><input message="tns:ListPetsIn"/><output message="tns:ListPetsOut"/></operation>
  </portType>
  <binding name="PetBinding" type="tns:PetPort">
    <soap:binding style="document" transport="http://schemas.xmlsoap.org/soap/http"/>
    <operation name="getPet">
      <soap:operation soapAction="urn:getPet"/>
      <input><soap:body use="literal"/></input>
      <output><soap:body use="literal"/></output>
    </operation>
    <operation name="listPets">
      <soap:operation soapAction="urn:listPets"/>
      <input><soap:body use="literal"/></input>
      <output><soap:body use="literal"/></output>
    </operation>
  </binding>
  <service name="PetService">
    <port name="PetPort" binding="tns:PetBinding"><soap:address location="${opts.address ?? 'http://pets.example.com/ws/pets'}"/></port>
  </service>
</definitions>
`;
}

/** The schema: inline types, a named type, an enum, a repeated node. */
export function schema(tns = TNS, body = SCHEMA_BODY): string {
  return `    <xsd:schema targetNamespace="${tns}" xmlns:tns="${tns}" elementFormDefault="qualified">
${body}
    </xsd:schema>`;
}

export const SCHEMA_BODY = `      <xsd:simpleType name="Status">
        <xsd:restriction base="xsd:string">
          <xsd:enumeration value="available"/>
          <xsd:enumeration value="sold"/>
        </xsd:restriction>
      </xsd:simpleType>
      <xsd:complexType name="Pet">
        <xsd:sequence>
          <xsd:element name="id" type="xsd:int"/>
          <xsd:element name="name" type="xsd:string"/>
          <xsd:element name="status" type="tns:Status"/>
          <xsd:element name="tag" type="xsd:string" minOccurs="0"/>
        </xsd:sequence>
      </xsd:complexType>
      <xsd:element name="getPet">
        <xsd:complexType>
          <xsd:sequence>
            <xsd:element name="id" type="xsd:int"/>
            <xsd:element name="code" type="xsd:string"/>
          </xsd:sequence>
        </xsd:complexType>
      </xsd:element>
      <xsd:element name="getPetResponse">
        <xsd:complexType><xsd:sequence><xsd:element name="pet" type="tns:Pet"/></xsd:sequence></xsd:complexType>
      </xsd:element>
      <xsd:element name="listPets">
        <xsd:complexType>
          <xsd:sequence>
            <xsd:element name="status" type="tns:Status"/>
            <xsd:element name="owner" type="xsd:string" maxOccurs="unbounded"/>
          </xsd:sequence>
        </xsd:complexType>
      </xsd:element>
      <xsd:element name="listPetsResponse">
        <xsd:complexType><xsd:sequence><xsd:element name="pet" type="tns:Pet" maxOccurs="unbounded"/></xsd:sequence></xsd:complexType>
      </xsd:element>`;

/** `text` with `from` replaced by `to`, checking that `from` is there (a case that changes nothing is a broken case). */
export function swap(from: string, to: string): (text: string) => string {
  return (text) => {
    if (!text.includes(from)) throw new Error(`case does not apply: ${from} not in the base`);
    return text.replace(from, to);
  };
}

const GET_PET_SEQUENCE =
  '          <xsd:sequence>\n            <xsd:element name="id" type="xsd:int"/>\n            <xsd:element name="code" type="xsd:string"/>\n          </xsd:sequence>';
const PET_ID_NAME = '<xsd:element name="id" type="xsd:int"/>\n          <xsd:element name="name" type="xsd:string"/>';
const GET_PET_CODE = '<xsd:element name="code" type="xsd:string"/>';
export const PET_NAME = '<xsd:element name="name" type="xsd:string"/>';
const PET_ID = '<xsd:element name="id" type="xsd:int"/>\n          <xsd:element name="name"';
const OWNER = '<xsd:element name="owner" type="xsd:string" maxOccurs="unbounded"/>';
const RESPONSE_PET = '<xsd:element name="pet" type="tns:Pet" maxOccurs="unbounded"/>';
const GET_RESPONSE_PET = '<xsd:complexType><xsd:sequence><xsd:element name="pet" type="tns:Pet"/></xsd:sequence></xsd:complexType>';
const SOLD = '<xsd:enumeration value="sold"/>';
const NAME_MAX_10 = '<xsd:element name="name"><xsd:simpleType><xsd:restriction base="xsd:string"><xsd:maxLength value="10"/></xsd:restriction></xsd:simpleType></xsd:element>';
const EMPTY_MEMBER = '<xsd:simpleType><xsd:restriction base="xsd:string"><xsd:enumeration value=""/></xsd:restriction></xsd:simpleType>';
const SHORT_CODE = '      <xsd:simpleType name="ShortCode"><xsd:restriction base="tns:Code"><xsd:pattern value="[0-9]{1,3}"/></xsd:restriction></xsd:simpleType>';
const SHORT_CODE_AT = '      <xsd:element name="getPet">';

/** A WSDL whose types live in an included XSD instead of inline. */
export const TYPES_XSD = `<?xml version="1.0" encoding="UTF-8"?>
<xsd:schema targetNamespace="${TNS}" xmlns:tns="${TNS}" xmlns:xsd="http://www.w3.org/2001/XMLSchema" elementFormDefault="qualified">
${SCHEMA_BODY}
</xsd:schema>
`;

/** getPet declares a fault (portType and binding). */
function FAULT(t: string): string {
  return swap(
    '  <portType name="PetPort">',
    '  <message name="NotFound"><part name="fault" element="tns:notFound"/></message>\n  <portType name="PetPort">',
  )(
    swap(
      '<output message="tns:GetPetOut"/></operation>',
      '<output message="tns:GetPetOut"/><fault name="notFound" message="tns:NotFound"/></operation>',
    )(
      swap(
        '      <output><soap:body use="literal"/></output>\n    </operation>\n    <operation name="listPets">',
        '      <output><soap:body use="literal"/></output>\n      <fault name="notFound"><soap:fault name="notFound" use="literal"/></fault>\n    </operation>\n    <operation name="listPets">',
      )(
        swap(
          '      <xsd:element name="getPet">',
          '      <xsd:element name="notFound"><xsd:complexType><xsd:sequence><xsd:element name="id" type="xsd:int"/></xsd:sequence></xsd:complexType></xsd:element>\n      <xsd:element name="getPet">',
        )(t),
      ),
    ),
  );
}

/** The base with one more operation, its input and output messages and SOAPAction given. */
function addOperation(t: string, name: string, input: string, output: string, action: string): string {
  return swap(
    '  </portType>',
    `    <operation name="${name}"><input message="${input}"/><output message="${output}"/></operation>\n  </portType>`,
  )(
    swap(
      '  </binding>',
      `    <operation name="${name}"><soap:operation soapAction="${action}"/><input><soap:body use="literal"/></input><output><soap:body use="literal"/></output></operation>\n  </binding>`,
    )(t),
  );
}

const GET_PET_INPUT = '    <operation name="getPet">\n      <soap:operation soapAction="urn:getPet"/>\n      <input><soap:body use="literal"/></input>';
const WSP = 'xmlns:wsp="http://www.w3.org/ns/ws-policy" xmlns:sp="http://docs.oasis-open.org/ws-sx/ws-securitypolicy/200702"';
const USERNAME_POLICY = '<sp:SupportingTokens><wsp:Policy><sp:UsernameToken/></wsp:Policy></sp:SupportingTokens>';
const TRANSPORT_POLICY =
  '<sp:TransportBinding><wsp:Policy><sp:TransportToken><wsp:Policy><sp:HttpsToken/></wsp:Policy></sp:TransportToken><sp:IncludeTimestamp/></wsp:Policy></sp:TransportBinding>' +
  '<sp:SupportingTokens><wsp:Policy><sp:UsernameToken><wsp:Policy><sp:HashPassword/></wsp:Policy></sp:UsernameToken></wsp:Policy></sp:SupportingTokens>';

/** getPet's input with this policy inline. */
function policyInput(policy: string): string {
  return `    <operation name="getPet">\n      <soap:operation soapAction="urn:getPet"/>\n      <input><wsp:Policy ${WSP}>${policy}</wsp:Policy><soap:body use="literal"/></input>`;
}

export const CASES: WsdlCase[] = [
  { label: 'nothing changed', newer: (t) => t, rules: [] },
  // The overlap rule (issue 35): an added operation that takes getPet's very requests (same element, same SOAPAction).
  {
    label: 'operation added that takes the requests getPet takes (same element and SOAPAction), answering otherwise',
    newer: (t) => addOperation(t, 'adoptPet', 'tns:GetPetIn', 'tns:ListPetsOut', 'urn:getPet'),
    rules: ['response-node-added', 'response-node-removed'],
  },
  {
    label: 'operation added that takes the requests getPet takes, answering as getPet does',
    newer: (t) => addOperation(t, 'adoptPet', 'tns:GetPetIn', 'tns:GetPetOut', 'urn:getPet'),
    rules: [],
  },
  {
    label: "operation added with getPet's element but a SOAPAction of its own, answering otherwise (no request fits both)",
    newer: (t) => addOperation(t, 'adoptPet', 'tns:GetPetIn', 'tns:ListPetsOut', 'urn:adoptPet'),
    rules: [],
  },
  {
    label: 'operation added',
    newer: (t) =>
      swap(
        '  </portType>',
        '    <operation name="adoptPet"><input message="tns:GetPetIn"/><output message="tns:GetPetOut"/></operation>\n  </portType>',
      )(
        swap(
          '  </binding>',
          '    <operation name="adoptPet"><soap:operation soapAction="urn:adoptPet"/><input><soap:body use="literal"/></input><output><soap:body use="literal"/></output></operation>\n  </binding>',
        )(t),
      ),
    rules: [],
  },
  {
    label: 'operation removed',
    newer: (t) =>
      swap(
        '    <operation name="listPets"><input message="tns:ListPetsIn"/><output message="tns:ListPetsOut"/></operation>\n',
        '',
      )(
        swap(
          '    <operation name="listPets">\n      <soap:operation soapAction="urn:listPets"/>\n      <input><soap:body use="literal"/></input>\n      <output><soap:body use="literal"/></output>\n    </operation>\n',
          '',
        )(t),
      ),
    // Every operation is on one POST: the older listPets is held to the closest newer scenario (getPet), and each difference is named.
    rules: ['request-node-removed', 'request-node-required-added', 'request-type-changed', 'response-node-added', 'response-node-removed'],
  },
  {
    label: 'operation renamed (its SOAPAction with it)',
    newer: (t) => t.replaceAll('operation name="getPet"', 'operation name="fetchPet"').replace('urn:getPet', 'urn:fetchPet'),
    rules: ['request-type-changed'],
  },
  {
    label: 'request node added, required',
    newer: swap(GET_PET_CODE, `${GET_PET_CODE}\n            <xsd:element name="owner" type="xsd:string"/>`),
    rules: ['request-node-required-added'],
  },
  { label: 'request node added, optional', newer: swap(GET_PET_CODE, `${GET_PET_CODE}\n            <xsd:element name="owner" type="xsd:string" minOccurs="0"/>`), rules: [] },
  { label: 'request node removed', newer: swap(`\n            ${GET_PET_CODE}`, ''), rules: ['request-node-removed'] },
  { label: 'request node made optional', newer: swap(GET_PET_CODE, '<xsd:element name="code" type="xsd:string" minOccurs="0"/>'), rules: [] },
  { label: 'request node made repeated', newer: swap(GET_PET_CODE, '<xsd:element name="code" type="xsd:string" maxOccurs="unbounded"/>'), rules: [] },
  {
    label: 'request node made single',
    newer: swap(OWNER, '<xsd:element name="owner" type="xsd:string"/>'),
    rules: ['request-node-made-single'],
  },
  { label: 'response node added', newer: swap(PET_NAME, `${PET_NAME}\n          <xsd:element name="age" type="xsd:int"/>`), rules: ['response-node-added'] },
  { label: 'response node removed', newer: swap(`\n          ${PET_NAME}`, ''), rules: ['response-node-removed'] },
  {
    label: 'response node made optional',
    newer: swap(GET_RESPONSE_PET, GET_RESPONSE_PET.replace('type="tns:Pet"', 'type="tns:Pet" minOccurs="0"')),
    rules: ['response-node-made-optional'],
  },
  {
    label: 'response node made repeated',
    newer: swap(GET_RESPONSE_PET, GET_RESPONSE_PET.replace('type="tns:Pet"', 'type="tns:Pet" maxOccurs="unbounded"')),
    rules: ['response-node-made-repeated'],
  },
  { label: 'response node made single', newer: swap(RESPONSE_PET, '<xsd:element name="pet" type="tns:Pet"/>'), rules: [] },
  { label: 'request type narrowed (string to int)', newer: swap(GET_PET_CODE, '<xsd:element name="code" type="xsd:int"/>'), rules: ['request-type-narrowed'] },
  {
    label: 'request type widened (int to string)',
    newer: swap(
      '<xsd:element name="id" type="xsd:int"/>\n            <xsd:element name="code"',
      '<xsd:element name="id" type="xsd:string"/>\n            <xsd:element name="code"',
    ),
    rules: [],
  },
  // Pet is in the request of no operation: its id is response-only.
  {
    label: 'response type widened (int to string)',
    newer: swap(PET_ID, '<xsd:element name="id" type="xsd:string"/>\n          <xsd:element name="name"'),
    rules: ['response-type-widened'],
  },
  { label: 'response type narrowed (string to int)', newer: swap(PET_NAME, '<xsd:element name="name" type="xsd:int"/>'), rules: [] },
  // Status is in listPets' request and in every Pet of a response: one more value breaks the responses, one fewer the request.
  { label: 'enum value added', newer: swap(SOLD, `${SOLD}\n          <xsd:enumeration value="lost"/>`), rules: ['response-type-widened'] },
  { label: 'enum value removed', newer: swap(`\n          ${SOLD}`, ''), rules: ['request-type-narrowed'] },
  { label: 'soapAction changed', newer: swap('soapAction="urn:getPet"', 'soapAction="urn:getPet2"'), rules: ['request-type-changed'] },
  { label: 'address host changed, same path', newer: swap('http://pets.example.com/ws/pets', 'https://api.example.org/ws/pets'), rules: [] },
  { label: 'address path changed', newer: swap('http://pets.example.com/ws/pets', 'http://pets.example.com/v2/pets'), rules: ['scenario-removed'] },
  { label: 'target namespace changed', newer: (t) => t.replaceAll(TNS, 'http://example.com/pets/v2'), rules: [] },
  {
    label: 'refactoring: types moved into an included XSD',
    newer: (t) => t.replace(schema(), schema(TNS, '      <xsd:include schemaLocation="types.xsd"/>')),
    files: { 'types.xsd': TYPES_XSD },
    rules: [],
  },
  {
    label: 'refactoring: xs:extension of a base with the same content',
    newer: (t) =>
      swap(
        '      <xsd:complexType name="Pet">\n        <xsd:sequence>\n          <xsd:element name="id" type="xsd:int"/>\n',
        '      <xsd:complexType name="Entity"><xsd:sequence><xsd:element name="id" type="xsd:int"/></xsd:sequence></xsd:complexType>\n      <xsd:complexType name="Pet">\n        <xsd:complexContent><xsd:extension base="tns:Entity">\n        <xsd:sequence>\n',
      )(
        swap(
          'minOccurs="0"/>\n        </xsd:sequence>\n      </xsd:complexType>',
          'minOccurs="0"/>\n        </xsd:sequence>\n        </xsd:extension></xsd:complexContent>\n      </xsd:complexType>',
        )(t),
      ),
    rules: [],
  },
  // A fault added is compatible and reported as a note: clients may now receive it (docs/compatibility.md).
  { label: 'fault added', newer: (t) => FAULT(t), rules: [], notes: ['fault-added'] },
  {
    label: 'fault detail: required node added',
    older: (t) => FAULT(t),
    newer: (t) =>
      swap(
        '<xsd:element name="notFound"><xsd:complexType><xsd:sequence><xsd:element name="id" type="xsd:int"/>',
        '<xsd:element name="notFound"><xsd:complexType><xsd:sequence><xsd:element name="id" type="xsd:int"/><xsd:element name="why" type="xsd:string"/>',
      )(FAULT(t)),
    rules: ['response-node-added'],
  },
  {
    label: 'request SOAP header added (required)',
    newer: headerAdded(),
    // A request's soap:header without wsdl:required is required (WS-I BP 1.1 R2738): older clients do not send it.
    rules: ['request-node-made-required', 'request-node-required-added'],
  },
  {
    label: 'request SOAP header added, wsdl:required="true"',
    newer: headerAdded('true'),
    rules: ['request-node-made-required', 'request-node-required-added'],
  },
  {
    label: 'request SOAP header added, wsdl:required="false"',
    newer: headerAdded('false'),
    rules: [],
  },
  {
    label: 'fault removed',
    older: (t) => FAULT(t),
    newer: (t) => t,
    // Written first as status-changed (the 500 answer is gone); issue 13 decided otherwise: a client that
    // handled the fault is not broken when it is never sent, so removing one is compatible, with a note.
    rules: [],
    notes: ['fault-removed'],
  },
  {
    label: 'response SOAP header added',
    newer: (t) =>
      swap(
        '  <message name="GetPetOut">',
        '  <message name="Trace"><part name="trace" element="tns:trace"/></message>\n  <message name="GetPetOut">',
      )(
        swap(
          '      <output><soap:body use="literal"/></output>\n    </operation>\n    <operation name="listPets">',
          '      <output><soap:body use="literal"/><soap:header message="tns:Trace" part="trace" use="literal"/></output>\n    </operation>\n    <operation name="listPets">',
        )(swap('      <xsd:element name="getPet">', '      <xsd:element name="trace" type="xsd:string"/>\n      <xsd:element name="getPet">')(t)),
      ),
    // A strict reader of the older contract meets a header node it does not know.
    rules: ['response-node-added'],
  },
  {
    label: 'facet added in the request (maxLength 10)',
    newer: swap(
      '<xsd:element name="code" type="xsd:string"/>',
      '<xsd:element name="code"><xsd:simpleType><xsd:restriction base="xsd:string"><xsd:maxLength value="10"/></xsd:restriction></xsd:simpleType></xsd:element>',
    ),
    rules: ['request-type-narrowed'],
  },
  {
    label: 'facet added in the response (maxLength 10): narrowed, compatible',
    newer: swap(PET_NAME, NAME_MAX_10),
    rules: [],
  },
  {
    label: 'facet dropped in the response (maxLength 10 to any string)',
    older: swap(PET_NAME, NAME_MAX_10),
    newer: (t) => t,
    rules: ['response-type-widened'],
  },
  {
    label: 'occurrence bounds tightened in the request (maxOccurs unbounded to 3)',
    newer: swap(OWNER, '<xsd:element name="owner" type="xsd:string" maxOccurs="3"/>'),
    rules: ['request-node-made-single'],
  },
  {
    label: 'request choice instead of a sequence',
    newer: swap(
      '          <xsd:sequence>\n            <xsd:element name="id" type="xsd:int"/>\n            <xsd:element name="code" type="xsd:string"/>\n          </xsd:sequence>',
      '          <xsd:choice>\n            <xsd:element name="id" type="xsd:int"/>\n            <xsd:element name="code" type="xsd:string"/>\n          </xsd:choice>',
    ),
    // Exactly one of a choice is allowed: a request with both no longer fits.
    rules: ['request-node-removed'],
  },
  {
    label: 'request choice: an alternative added',
    older: swap(GET_PET_SEQUENCE, getPetChoice(['id', 'code'])),
    newer: swap(GET_PET_SEQUENCE, getPetChoice(['id', 'code', 'ref'])),
    rules: [],
  },
  {
    label: 'request choice: an alternative removed',
    older: swap(GET_PET_SEQUENCE, getPetChoice(['id', 'code', 'ref'])),
    newer: swap(GET_PET_SEQUENCE, getPetChoice(['id', 'code'])),
    rules: ['request-node-removed'],
  },
  {
    label: 'request choice turned back into a sequence',
    older: swap(GET_PET_SEQUENCE, getPetChoice(['id', 'code'])),
    newer: (t) => t,
    rules: ['request-node-made-required'],
  },
  {
    label: 'response sequence turned into a choice',
    newer: swap(PET_ID_NAME, petChoice(['id', 'name'])),
    rules: ['response-node-made-optional'],
  },
  {
    label: 'response choice: an alternative added',
    older: swap(PET_ID_NAME, petChoice(['id', 'name'])),
    newer: swap(PET_ID_NAME, petChoice(['id', 'name', 'nick'])),
    rules: ['response-node-added'],
  },
  {
    label: 'response choice: an alternative removed',
    older: swap(PET_ID_NAME, petChoice(['id', 'name', 'nick'])),
    newer: swap(PET_ID_NAME, petChoice(['id', 'name'])),
    rules: [],
  },
  {
    label: 'response choice turned into a sequence',
    older: swap(PET_ID_NAME, petChoice(['id', 'name'])),
    newer: (t) => t,
    rules: ['response-node-added'],
  },
  {
    label: 'derived type added to a response type (xsi:type may name it)',
    newer: typesAdded(derived('Dog', 'Pet', 'breed')),
    rules: ['response-derived-type-added'],
  },
  {
    label: 'derived type removed from a response type',
    older: typesAdded(derived('Dog', 'Pet', 'breed')),
    newer: (t) => t,
    rules: [],
  },
  {
    label: "a response derived type's own content gains a node",
    older: typesAdded(derived('Dog', 'Pet', 'breed')),
    newer: typesAdded(derived('Dog', 'Pet', 'breed', 'chip')),
    rules: ['response-node-added'],
  },
  {
    label: 'derived type removed from a request type',
    older: (t) => codeFilter(typesAdded(`${FILTER}\n${derived('DateFilter', 'Filter', 'from')}`)(t)),
    newer: (t) => codeFilter(typesAdded(FILTER)(t)),
    rules: ['request-derived-type-removed'],
  },
  {
    label: 'derived type added to a request type',
    older: (t) => codeFilter(typesAdded(FILTER)(t)),
    newer: (t) => codeFilter(typesAdded(`${FILTER}\n${derived('DateFilter', 'Filter', 'from')}`)(t)),
    rules: [],
  },
  // xs:union: getPet's code (request only) and Pet's id (response only) typed by a union; its members compared as values.
  { label: 'request union: a member added', older: requestUnion('xsd:int xsd:date'), newer: requestUnion('xsd:int xsd:date xsd:boolean'), rules: [] },
  { label: 'request union: a member removed', older: requestUnion('xsd:int xsd:date'), newer: requestUnion('xsd:int'), rules: ['request-type-narrowed'] },
  {
    label: 'request union: a member removed that another member covers (int within string)',
    older: requestUnion('xsd:int xsd:string'),
    newer: requestUnion('xsd:string'),
    rules: [],
  },
  {
    label: 'request union: its inline member of "" removed',
    older: requestUnion('xsd:language', EMPTY_MEMBER),
    newer: requestUnion('xsd:language'),
    rules: ['request-type-narrowed'],
  },
  { label: 'request union: an inline member of "" added', older: requestUnion('xsd:language'), newer: requestUnion('xsd:language', EMPTY_MEMBER), rules: [] },
  {
    label: 'request union: restricted by a pattern',
    older: requestUnion('xsd:int xsd:date'),
    newer: (t) =>
      requestUnion('xsd:int xsd:date')(t)
        .replace('type="tns:Code"', 'type="tns:ShortCode"')
        .replace(
          SHORT_CODE_AT,
          `${SHORT_CODE}
${SHORT_CODE_AT}`,
        ),
    rules: ['request-type-narrowed'],
  },
  { label: 'response union: a member added', older: responseUnion('xsd:int xsd:date'), newer: responseUnion('xsd:int xsd:date xsd:boolean'), rules: ['response-type-widened'] },
  { label: 'response union: a member removed', older: responseUnion('xsd:int xsd:date'), newer: responseUnion('xsd:int'), rules: [] },
  // WS-Policy (issue 37): a stronger policy on an existing operation breaks its older clients; a weaker one breaks no one.
  { label: 'policy added: a UsernameToken on getPet', newer: swap(GET_PET_INPUT, policyInput(USERNAME_POLICY)), rules: ['request-protection-added'] },
  {
    label: 'policy strengthened: a hashed password and a Timestamp over HTTPS where a text UsernameToken was asked',
    older: swap(GET_PET_INPUT, policyInput(USERNAME_POLICY)),
    newer: swap(GET_PET_INPUT, policyInput(TRANSPORT_POLICY)),
    rules: ['request-protection-added'],
  },
  {
    label: 'policy weakened: the TransportBinding and hashed password dropped',
    older: swap(GET_PET_INPUT, policyInput(TRANSPORT_POLICY)),
    newer: swap(GET_PET_INPUT, policyInput(USERNAME_POLICY)),
    rules: [],
  },
  { label: 'policy removed', older: swap(GET_PET_INPUT, policyInput(USERNAME_POLICY)), newer: (t) => t, rules: [] },
];

/** getPet's code typed by a union Code of these member types (and inline members). */
function requestUnion(memberTypes: string, inline = ''): (t: string) => string {
  return (t) => swap(GET_PET_CODE, '<xsd:element name="code" type="tns:Code"/>')(typesAdded(unionType('Code', memberTypes, inline))(t));
}

/** Pet's id typed by a union Id of these member types. */
function responseUnion(memberTypes: string): (t: string) => string {
  return (t) => swap(PET_ID, '<xsd:element name="id" type="tns:Id"/>\n          <xsd:element name="name"')(typesAdded(unionType('Id', memberTypes))(t));
}

function unionType(name: string, memberTypes: string, inline = ''): string {
  return `      <xsd:simpleType name="${name}"><xsd:union memberTypes="${memberTypes}">${inline}</xsd:union></xsd:simpleType>`;
}

const FILTER = '      <xsd:complexType name="Filter"><xsd:sequence><xsd:element name="text" type="xsd:string"/></xsd:sequence></xsd:complexType>';

/** Named types declared before getPet. */
function typesAdded(types: string): (t: string) => string {
  return swap('      <xsd:element name="getPet">', `${types}\n      <xsd:element name="getPet">`);
}

/** getPet's code typed with Filter. */
function codeFilter(t: string): string {
  return swap(GET_PET_CODE, '<xsd:element name="code" type="tns:Filter"/>')(t);
}

/** A complex type extending `base` with string nodes. */
function derived(name: string, base: string, ...nodes: string[]): string {
  const els = nodes.map((n) => `<xsd:element name="${n}" type="xsd:string"/>`).join('');
  return `      <xsd:complexType name="${name}"><xsd:complexContent><xsd:extension base="tns:${base}"><xsd:sequence>${els}</xsd:sequence></xsd:extension></xsd:complexContent></xsd:complexType>`;
}

/** getPet's request content as a choice of these string elements (id stays an int). */
function getPetChoice(names: string[]): string {
  const el = (n: string) => `            <xsd:element name="${n}" type="${n === 'id' ? 'xsd:int' : 'xsd:string'}"/>`;
  return `          <xsd:choice>\n${names.map(el).join('\n')}\n          </xsd:choice>`;
}

/** Pet's first nodes as a choice of these (id stays an int). */
function petChoice(names: string[]): string {
  return `<xsd:choice>${names.map((n) => `<xsd:element name="${n}" type="${n === 'id' ? 'xsd:int' : 'xsd:string'}"/>`).join('')}</xsd:choice>`;
}

/** getPet's input gains a soap:header part <auth>, marked wsdl:required as given (unmarked when undefined). */
function headerAdded(required?: 'true' | 'false'): (t: string) => string {
  const mark = required === undefined ? '' : ` wsdl:required="${required}" xmlns:wsdl="http://schemas.xmlsoap.org/wsdl/"`;
  return (t) =>
    swap(
      '  <message name="GetPetOut">',
      '  <message name="Auth"><part name="auth" element="tns:auth"/></message>\n  <message name="GetPetOut">',
    )(
      swap(
        '    <operation name="getPet">\n      <soap:operation soapAction="urn:getPet"/>\n      <input><soap:body use="literal"/></input>',
        `    <operation name="getPet">\n      <soap:operation soapAction="urn:getPet"/>\n      <input><soap:body use="literal"/><soap:header message="tns:Auth" part="auth" use="literal"${mark}/></input>`,
      )(swap('      <xsd:element name="getPet">', '      <xsd:element name="auth" type="xsd:string"/>\n      <xsd:element name="getPet">')(t)),
    );
}
