import { AccordError } from '../errors';
import type { OperationModel, ServiceModel, SoapVersion } from './model';
import { quoted } from '../printable';
import { isXmlName } from './names';

export interface Selection {
  /** One operation per interface operation, in WSDL order. */
  chosen: OperationModel[];
  /** Distinct interface operations offered on SOAP ports. */
  operations: number;
  /** What was chosen among ports and versions, said for the summary. */
  choices: string[];
}

/**
 * Which port's binding of each operation is written: the preferred SOAP
 * version's, else the first port offering it; only `port` when given.
 * Writing every port would give several scenarios for one operation,
 * whose stubs answer the same requests; a stub of the WSDL asks for them
 * (`everyPort`): one per SOAP version and path, told apart by the envelope.
 */
export function selectOperations(model: ServiceModel, file: string, prefer: SoapVersion, port?: string, everyPort = false): Selection {
  let ops = model.operations;
  if (port !== undefined) {
    ops = ops.filter((o) => o.port === port);
    if (ops.length === 0) {
      const ports = [...new Set(model.operations.map((o) => o.port).filter(Boolean))];
      throw new AccordError('ACCORD_ERR_USAGE', `no SOAP port named "${port}"; the SOAP ports are: ${ports.join(', ') || '(none)'}`, { file: file });
    }
  }
  if (ops.length === 0) {
    throw new AccordError('ACCORD_ERR_WSDL', `no SOAP operation to import${model.skipped.length ? `: ${model.skipped.join('; ')}` : ''}`, { file: file });
  }

  // One operation per interface operation: the preferred SOAP version's port, else the first port offering it.
  const groups = new Map<string, OperationModel[]>();
  for (const o of ops) {
    // Every port (a stub of the WSDL): one per SOAP version and address; the same binding at two addresses of one path is one.
    const k = everyPort ? `${o.interfaceKey}#${o.name}#${o.soapVersion}#${o.path ?? ''}` : `${o.interfaceKey}#${o.name}`;
    const g = groups.get(k) ?? [];
    g.push(o);
    groups.set(k, g);
  }
  const choices: string[] = [];
  const chosen: OperationModel[] = [];
  let bothCount = 0;
  for (const g of groups.values()) {
    const pick = g.find((o) => o.soapVersion === prefer) ?? g[0];
    if (new Set(g.map((o) => o.soapVersion)).size > 1) bothCount++;
    chosen.push(pick);
  }
  if (bothCount > 0) {
    const other = prefer === '1.1' ? '1.2' : '1.1';
    choices.push(`${bothCount} operation${bothCount > 1 ? 's are' : ' is'} offered over SOAP 1.1 and 1.2: SOAP ${prefer} written (use --soap-version ${other} for the other)`);
  }
  const portsUsed = new Set(chosen.map((o) => o.port).filter(Boolean));
  const portsAll = new Set(ops.map((o) => o.port).filter(Boolean));
  if (portsAll.size > portsUsed.size)
    choices.push(`ports written: ${[...portsUsed].join(', ')}; ports offering the same operations left out: ${[...portsAll].filter((p) => !portsUsed.has(p)).join(', ')}`);

  // An rpc operation is sent as an element named after it: a name XML does not allow cannot be.
  for (const o of [...chosen]) {
    if (o.style === 'rpc' && !isXmlName(o.name)) {
      chosen.splice(chosen.indexOf(o), 1);
      model.skipped.push(`operation ${quoted(o.name)}: rpc style needs it as an element name, and it is not a legal XML name`);
    }
  }
  if (chosen.length === 0) throw new AccordError('ACCORD_ERR_WSDL', `no SOAP operation to import: ${model.skipped.join('; ')}`, { file });
  return { chosen, operations: everyPort ? new Set(chosen.map((o) => `${o.interfaceKey}#${o.name}`)).size : groups.size, choices };
}
