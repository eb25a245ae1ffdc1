import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { AccordError } from '../errors';
import { EXPORT_DIR, FILE_LIMITS, filesInside, folderInside, readInputBytes, removeInside, writeOutputFile } from '../files';
import { exampleKey } from '../http/example-key';
import { parseJson } from '../json/parse';
import { excerpt, quoted, withoutCredentials } from '../printable';
import { cachePaths, consumerNameProblem, type ContractSource, type ProjectConfig } from './config';

/**
 * Consumer-driven contracts through the shared repository, without a broker.
 *
 * A consumer's tests export the expectations they set (stub/client/export-examples.ts) to
 * `.accord/consumer-examples/<source>/<contract path>_examples/*.json`; `accord contracts
 * publish --consumer <name>` puts them in the consumer's part of the shared repository,
 * `consumers/<name>/<contract path>_examples/*.json` (the same path as the contract's own
 * example folder, under the consumer's name), and shows what it will change first.
 * A provider's `accord contracts pull` copies every consumer's examples of the contracts it
 * provides beside them, `<contract>_consumers/<name>/*.json`, where its Jest run replays them.
 */
export const CONSUMERS_DIR = 'consumers';
export { EXPORT_DIR };
const CONTRACT_EXTENSIONS = ['.spec', '.wsdl'];

export interface ConsumerExampleCount {
  consumer: string;
  files: number;
}

/** What publishing would do to `consumers/<name>/` of one source's checkout. */
export interface PublishPlan {
  source: ContractSource;
  consumer: string;
  checkout: string;
  /** Paths in the repository (`consumers/billing-ui/orders/api_orders_v1_examples/x.json`), sorted. */
  added: string[];
  changed: string[];
  removed: string[];
  unchanged: number;
  /** Exported examples left out: the contract's own example files have them already. */
  merged: string[];
  /** Exported examples whose contract is not in the repository (`<path>.spec`), kept out. */
  noContract: string[];
  /** The new text of each added or changed file. */
  texts: Map<string, string>;
}

function readExample(file: string, shown: string): { text: string; key: string } {
  const text = readInputBytes(file, { what: 'example file', limit: FILE_LIMITS.exampleBytes, shown }).toString('utf8');
  let value: unknown;
  try {
    value = parseJson(text);
  } catch (e) {
    throw new AccordError('ACCORD_ERR_JSON', `example file is not valid JSON: ${excerpt((e as Error).message, 200)}`, { file: shown });
  }
  return { text, key: exampleKey(value) };
}

/** `x/y/api_examples/f.json` → `x/y/api`: the contract's path without its extension. */
function contractBase(rel: string): string | undefined {
  const dir = path.posix.dirname(rel);
  return dir.endsWith('_examples') ? dir.slice(0, -'_examples'.length) : undefined;
}

function contractIn(root: string, base: string): string | undefined {
  return CONTRACT_EXTENSIONS.map((e) => base + e).find((p) => existsSync(path.join(root, p)));
}

/**
 * The changes publishing `consumer`'s exported examples of `source` would make: the consumer's
 * part of the repository becomes what its last run exported (so an expectation its tests no
 * longer set is removed), less the examples the contract itself has already.
 */
export function planPublish(config: ProjectConfig, source: ContractSource, consumer: string): PublishPlan {
  checkConsumerName(consumer);
  const checkout = cachePaths(config, source).checkout;
  folderInside(config.root, path.relative(config.root, checkout), false);
  if (!existsSync(path.join(checkout, '.git'))) throw new AccordError('ACCORD_ERR_USAGE', `${source.name} is not pulled yet: run "accord contracts pull" first`);
  // Another consumer's folder that differs only in case is the same folder on macOS and Windows: publishing would replace its files.
  const twin = foldersIn(path.join(checkout, CONSUMERS_DIR)).find((f) => f !== consumer && f.toLowerCase() === consumer.toLowerCase());
  if (twin !== undefined)
    throw new AccordError(
      'ACCORD_ERR_USAGE',
      `--consumer ${quoted(consumer)}: ${source.name} has ${CONSUMERS_DIR}/${twin}/ already, a name that differs only in case (one folder on a case-insensitive file system); publish as ${quoted(twin)} or choose another name`,
    );
  const exported = path.join(config.root, EXPORT_DIR);
  const part = `${CONSUMERS_DIR}/${consumer}`;
  const plan: PublishPlan = { source, consumer, checkout, added: [], changed: [], removed: [], unchanged: 0, merged: [], noContract: [], texts: new Map() };
  const ownKeys = new Map<string, Set<string>>();
  const keysOf = (folder: string): Set<string> => {
    let keys = ownKeys.get(folder);
    if (!keys) {
      keys = new Set(filesInside(checkout, folder, '.json').map((f) => readExample(path.join(checkout, f), f).key));
      ownKeys.set(folder, keys);
    }
    return keys;
  };
  const wanted = new Map<string, string>();
  const seen = new Set<string>();
  for (const rel of filesInside(exported, source.name, '.json')) {
    const inSource = rel.slice(source.name.length + 1);
    const base = contractBase(inSource);
    const shown = path.join(EXPORT_DIR, rel);
    if (base === undefined || !contractIn(checkout, base)) {
      plan.noContract.push(shown);
      continue;
    }
    const { text, key } = readExample(path.join(exported, rel), shown);
    // Two exported files of one example (the same request and response, another test's name): one is kept.
    if (seen.has(`${base}\0${key}`) || keysOf(`${base}_examples`).has(key)) {
      plan.merged.push(shown);
      continue;
    }
    seen.add(`${base}\0${key}`);
    wanted.set(`${part}/${inSource}`, text);
  }
  const existing = new Set(filesInside(checkout, part, '.json'));
  for (const [rel, text] of wanted) {
    if (!existing.has(rel)) plan.added.push(rel);
    else if (readFileSync(path.join(checkout, rel), 'utf8') !== text) plan.changed.push(rel);
    else {
      plan.unchanged++;
      continue;
    }
    plan.texts.set(rel, text);
  }
  for (const rel of existing) if (!wanted.has(rel)) plan.removed.push(rel);
  plan.added.sort();
  plan.changed.sort();
  plan.removed.sort();
  return plan;
}

/** An AccordError (a usage error: exit 2) when `consumer` cannot name a consumer's folder (config.ts consumerNameProblem). */
export function checkConsumerName(consumer: string): void {
  const problem = consumerNameProblem(consumer);
  if (problem) throw new AccordError('ACCORD_ERR_USAGE', `--consumer ${quoted(consumer, 80)} ${problem}; nothing was changed`);
}

/** The names of the folders in `dir` (none when it is missing or not a folder). */
function foldersIn(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true }).flatMap((d) => (d.isDirectory() || d.isSymbolicLink() ? [d.name] : []));
  } catch {
    return [];
  }
}

/** The plan as a person reads it: one line a file, `+` added, `~` changed, `-` removed, then the counts. */
export function formatPlan(plan: PublishPlan): string {
  const lines = [`${plan.source.name} (${excerpt(withoutCredentials(plan.source.git))}), consumer ${plan.consumer}:`];
  for (const f of plan.added) lines.push(`  + ${f}`);
  for (const f of plan.changed) lines.push(`  ~ ${f}`);
  for (const f of plan.removed) lines.push(`  - ${f}`);
  lines.push(
    `  ${plan.added.length} added, ${plan.changed.length} changed, ${plan.removed.length} removed, ${plan.unchanged} unchanged` +
      (plan.merged.length > 0 ? `; ${plan.merged.length} merged (the same request and response as another example, or as one of the contract's own)` : ''),
  );
  for (const f of plan.noContract) lines.push(`  ! ${f}: its contract is not in the repository; left out`);
  return lines.join('\n') + '\n';
}

export function planIsEmpty(plan: PublishPlan): boolean {
  return plan.added.length + plan.changed.length + plan.removed.length === 0;
}

/** Writes the plan into the checkout: files only inside `consumers/<name>/`, no link followed. */
export function applyPlan(plan: PublishPlan): void {
  for (const rel of [...plan.added, ...plan.changed]) {
    const folder = folderInside(plan.checkout, path.dirname(rel));
    writeOutputFile(path.join(folder, path.basename(rel)), plan.texts.get(rel)!, { force: true, shown: rel });
  }
  for (const rel of plan.removed) removeInside(plan.checkout, rel);
}

/**
 * After a pull: each consumer's examples of the contracts `provides` names, copied from
 * `consumers/<name>/<path>_examples/` of the checkout to `<path>_consumers/<name>/` beside the
 * provided contract under `to`. Examples of contracts this project does not provide are left.
 */
export function copyConsumerExamples(checkout: string, provides: readonly string[], to: string): ConsumerExampleCount[] {
  const counts = new Map<string, number>();
  const provided = (contract: string) =>
    provides.some((p) => {
      let norm = p.replaceAll('\\', '/');
      while (norm.endsWith('/')) norm = norm.slice(0, -1);
      return contract === norm || contract.startsWith(`${norm}/`);
    });
  for (const rel of filesInside(checkout, CONSUMERS_DIR, '.json')) {
    const [, consumer, ...rest] = rel.split('/');
    if (!consumer || consumerNameProblem(consumer) !== undefined || rest.length < 2) continue;
    const inRepo = rest.join('/');
    const base = contractBase(inRepo);
    const contract = base === undefined ? undefined : contractIn(checkout, base);
    if (!contract || !provided(contract)) continue;
    const folder = folderInside(to, `${base}_consumers/${consumer}`);
    const bytes = readInputBytes(path.join(checkout, rel), { what: 'example file', limit: FILE_LIMITS.exampleBytes, shown: rel });
    writeOutputFile(path.join(folder, path.basename(rel)), bytes.toString('utf8'), { force: true, shown: rel });
    counts.set(consumer, (counts.get(consumer) ?? 0) + 1);
  }
  return [...counts].map(([consumer, files]) => ({ consumer, files }));
}
