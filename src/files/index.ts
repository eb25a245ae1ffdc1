export { FILE_LIMITS } from '../limits';
export {
  binaryOffset,
  decodeText,
  decodeXmlText,
  formatBytes,
  ioError,
  irregularKind,
  isLink,
  limitError,
  readInputBytes,
  readInputText,
  readInputXml,
  refuseBinary,
  refuseIrregular,
  shownPath,
  binaryError,
  type InputFile,
} from './read';
export { checkOutputFile, writeOutputFile, type OutputFile } from './write';
export { openInputStream, readStreamText } from './stream';
export { decodeXml } from './decode';
export { CACHE_DIR, EXPORT_DIR, filesInside, folderInside, leavesFolder, removeInside } from './folders';
