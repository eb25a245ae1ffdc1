export { CACHE_DIR, CONFIG_FILE, cachePaths, readProjectConfig, readSpecmaticConfig, settingsNotice, specmaticSettings, type ContractSource, type ProjectConfig } from './config';
export { SPECMATIC_FILES, type AccordSettings, type SpecmaticNote } from './specmatic';
export { pullSource, type PulledSource } from './pull';
export { CONSUMERS_DIR, EXPORT_DIR, checkConsumerName, formatPlan, planIsEmpty, planPublish, type PublishPlan } from './consumer-examples';
export { publishPlan } from './publish';
