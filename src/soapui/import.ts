import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { parseContract } from '../contract/load';
import type { Contract } from '../contract/model';
import { AccordError } from '../errors';
import { writeOutputFile } from '../files';
import { importWsdl, isPartial, type ImportSummary } from '../wsdl';
import type { NotCarried } from './model';
import { planImport, type ContractPlan, type ExamplePlan, type ImportPlan } from './plan';
import { readProjectSource } from './source';

/**
 * `accord import soapui`'s edge: reads the project (source.ts), plans (plan.ts), writes each
 * contract's cached WSDL documents under `<out>/wsdl/<stem>/` and imports them as `accord import
 * wsdl` does (every SOAP port), and gives back the contracts and, for each example, the example file
 * bodies to try (one per path and status the contract could take it at). Writing the examples is
 * left to the caller, which checks each against its contract first (the stub's one fitting).
 */
export interface SoapuiImportOptions {
  /** The folder written into (it must exist or be creatable). */
  outDir: string;
  /** Overwrite files already there. */
  force?: boolean;
}

export interface ImportedContract {
  plan: ContractPlan;
  file: string;
  text: string;
  contract: Contract;
  summary: ImportSummary;
  wsdlFiles: string[];
}

export interface ExampleCandidates {
  plan: ExamplePlan;
  /** The example file's JSON, one per path and status to try, in order. */
  candidates: Record<string, unknown>[];
}

export interface SoapuiImport {
  plan: ImportPlan;
  contracts: ImportedContract[];
  examples: ExampleCandidates[];
  notCarried: NotCarried[];
}

export function importSoapui(input: string, options: SoapuiImportOptions): SoapuiImport {
  const project = readProjectSource(input);
  const projectDir = path.dirname(input);
  const plan = planImport(project, projectDir);
  const notCarried = [...plan.notCarried];
  const contracts: ImportedContract[] = [];
  for (const c of plan.contracts) {
    const dir = path.join(options.outDir, 'wsdl', c.stem);
    mkdirSync(dir, { recursive: true });
    const written: string[] = [];
    for (const f of c.documents.files) {
      const file = path.join(dir, f.name);
      writeOutputFile(file, f.text, { force: options.force, shown: path.relative(options.outDir, file) });
      written.push(file);
    }
    const specFile = path.join(options.outDir, `${c.stem}.spec`);
    const source = path.relative(options.outDir, written[0]).split(path.sep).join('/');
    let result;
    try {
      result = importWsdl(written[0], { everyPort: true, source });
    } catch (e) {
      if (!(e instanceof AccordError)) throw e;
      for (const i of c.interfaces) notCarried.push({ what: `interface "${i.name}"`, place: i.place, why: `its cached WSDL cannot be imported: ${e.describe()}` });
      continue;
    }
    if (isPartial(result.summary)) {
      const missing = [...result.summary.unresolved.map((u) => u.location), ...result.summary.missing];
      notCarried.push({
        what: `parts of the WSDL of "${c.interfaces.map((i) => i.name).join('", "')}"`,
        place: c.interfaces[0].place,
        why: `not cached in the project: ${missing.slice(0, 5).join(', ')}${missing.length > 5 ? ` and ${missing.length - 5} more` : ''}; the nodes they type are (anything)`,
      });
    }
    contracts.push({ plan: c, file: specFile, text: result.text, contract: parseContract(result.text, specFile), summary: result.summary, wsdlFiles: written });
  }
  const byStem = new Map(contracts.map((c) => [c.plan.stem, c]));
  const examples: ExampleCandidates[] = [];
  for (const e of plan.examples) {
    const c = byStem.get(e.contract);
    if (!c) continue;
    examples.push({ plan: e, candidates: candidatesOf(e, c.contract) });
  }
  return { plan, contracts, examples, notCarried };
}

/** The example file's JSON at each path the contract's SOAP scenarios are at, with each status to try. */
function candidatesOf(e: ExamplePlan, contract: Contract): Record<string, unknown>[] {
  const paths = [...new Set(contract.scenarios.filter((s) => s.request.method.toUpperCase() === 'POST').map((s) => s.request.path))].filter((p) => !p.includes('('));
  const out: Record<string, unknown>[] = [];
  for (const p of paths) {
    for (const status of e.statuses) {
      const request: Record<string, unknown> = { method: 'POST', path: p };
      if (Object.keys(e.headers).length > 0) request.headers = e.headers;
      if (e.body !== undefined) request.body = e.body;
      const response: Record<string, unknown> = { status };
      if (e.responseBody !== undefined) response.body = e.responseBody;
      out.push({ 'http-request': request, 'http-response': response });
    }
  }
  return out;
}
