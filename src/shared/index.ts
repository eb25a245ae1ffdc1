export { CACHE_DIR, CONFIG_FILE, cachePaths, readProjectConfig, type ContractSource, type ProjectConfig } from './config';
export { pullSource, type PulledSource } from './pull';
