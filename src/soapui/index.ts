export { importSoapui, type ExampleCandidates, type ImportedContract, type SoapuiImport, type SoapuiImportOptions } from './import';
export { placeText, type NotCarried } from './model';
