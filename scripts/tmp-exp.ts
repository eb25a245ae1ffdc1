import { loadContract } from '../src/contract/load';
import { exportWsdl } from '../src/wsdl/export';
const c = loadContract(process.argv[2]);
const r = exportWsdl(c.scenarios, { name: c.name });
console.log(r.text); console.error(r.dropped.join('\n'));
