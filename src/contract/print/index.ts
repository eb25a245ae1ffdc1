export { printContract, type PrintContract, type PrintScenario, type PrintStyle, type Step } from './contract';
export { printableContract } from './from-model';
export { placeholderText, printJson, printXml } from './pattern';
