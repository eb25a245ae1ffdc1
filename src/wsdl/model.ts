import type { Element } from '@xmldom/xmldom';
import type { QName } from './dom';

export type SoapVersion = '1.1' | '1.2';

/** A message part: a global element (`element=`) or a type (`type=`, rpc style). */
export interface PartModel {
  name: string;
  element?: QName;
  type?: QName;
  /** For WSDL 2.0 `#any`: any element. */
  any?: boolean;
  /** A SOAP header part that must be sent: WSDL 1.1 a request's unless `wsdl:required="false"`, an answer's if `wsdl:required="true"`; WSDL 2.0 `required="true"`. */
  required?: boolean;
  /** Required by WS-I's rule (no `wsdl:required` written), not by the binding's own word. */
  impliedRequired?: boolean;
  /** Where the part is declared, to resolve prefixes and report lines. */
  at: Element;
}

export interface MessageModel {
  /** rpc style: the wrapper element (operation name, or name + "Response") and its namespace. */
  wrapper?: QName;
  body: PartModel[];
  headers: PartModel[];
}

export interface FaultModel {
  name: string;
  parts: PartModel[];
  /**
   * WSDL 1.1: the `namespace` of the binding's `soap:fault`. It qualifies a `type=` part's detail
   * entry (SOAP 1.1 4.4: detail entries are namespace-qualified; WSDL 1.1 3.6: soap:fault's
   * namespace is used as soap:body's), as Apache Axis 1.4 sends and reads its declared faults.
   */
  namespace?: string;
  /** WS-Addressing: the Action of this fault (`wsaw:Action`/`wsam:Action` on the wsdl:fault, else the default pattern). */
  action?: string;
}

/** One SOAP operation as bound to one port: what the contract writer needs, whatever the WSDL version. */
export interface OperationModel {
  name: string;
  /** The abstract interface (portType / interface) it belongs to, to recognise the same operation on several ports. */
  interfaceKey: string;
  interfaceName: string;
  service?: string;
  port?: string;
  soapVersion: SoapVersion;
  /** SOAPAction (1.1) or the action parameter (1.2); undefined when the binding gives none. */
  action?: string;
  /** Path of the port's address; undefined when the WSDL gives no usable address. */
  path?: string;
  style: 'document' | 'rpc';
  use: 'literal' | 'encoded';
  input: MessageModel;
  /** Undefined for a one-way operation. */
  output?: MessageModel;
  /** WS-Addressing: the Action of the answer (`wsaw:Action`/`wsam:Action` on the output, else the default pattern). */
  replyAction?: string;
  faults: FaultModel[];
  /** WSDL 1.1: where policies that apply to the request may be attached (binding, binding operation, its input), for `policy.ts`. */
  policySubjects?: Element[];
}

export interface ServiceModel {
  name: string;
  targetNamespace: string;
  /** Every SOAP operation of every SOAP port, before choosing among ports. */
  operations: OperationModel[];
  /** Things left out, with the reason (HTTP bindings, notification operations, ...). */
  skipped: string[];
  /** Things written differently from what the WSDL says, with the reason (attachments, undefined messages). */
  notes: string[];
  /** Messages used and not defined (`message tns:X`; most often in a WSDL that was not loaded): their bodies are (anything). */
  missing?: string[];
}
