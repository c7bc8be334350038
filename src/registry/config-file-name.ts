/** Default location of the project config file, relative to the working folder (config-file.ts). */
export const DEFAULT_CONFIG_FILE = '.jev/config.json';
