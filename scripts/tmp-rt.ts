import { loadContract, parseContract } from '../src/contract/load';
import { exportWsdl } from '../src/wsdl/export';
import { importWsdl } from '../src/wsdl';
import { checkCompatibility } from '../src/compat';
import fs from 'node:fs';
const verbose = process.env.V === '1';
let eq = 0, exp = 0, n = 0;
for (const file of process.argv.slice(2)) {
  n++;
  try {
    const c = loadContract(file);
    const r = exportWsdl(c.scenarios, { name: c.name });
    if (verbose) console.log(r.dropped.join('\n'));
    if (!r.text) { console.log('NOTHING', file); continue; }
    exp++;
    fs.writeFileSync('/tmp/rt.wsdl', r.text);
    const imp = importWsdl('/tmp/rt.wsdl');
    fs.writeFileSync('/tmp/rt.spec', imp.text);
    const back = parseContract(imp.text, '/tmp/rt.spec');
    const a = checkCompatibility(c, back), b = checkCompatibility(back, c);
    if (a.compatible && b.compatible) eq++;
    console.log(a.compatible && b.compatible ? 'EQUAL' : 'DIFF', file, r.dropped.length);
    if (verbose) for (const v of [a, b]) for (const f of v.results) if (!f.compatible) for (const x of f.findings) console.log('   ', x.message.slice(0, 300));
  } catch (e) { console.log('ERROR', file, (e as Error).message.slice(0, 300)); }
}
console.log(`${n} files, ${exp} exported, ${eq} equal`);
