// The config file: toolwire.config.json, validated against the shipped schema, and what it builds.
export {
  type BuildFromConfigOptions,
  type BuiltConfig,
  buildFromConfig,
  type ConfigProblem,
  type McpServerPlan,
} from "./apply-config.js";
export type { ConfigIssue } from "./config-issue.js";
export { findOutsideCode, type OutsideCode } from "./find-outside-code.js";
export {
  CONFIG_FILE_NAME,
  ConfigError,
  type ConfigErrorCode,
  type LoadedConfig,
  loadConfig,
  MAX_CONFIG_BYTES,
  parseConfig,
} from "./load-config.js";
export { type JsonErrorLocation, locateJsonError } from "./locate-json-error.js";
export type {
  AvailabilityConfig,
  BuiltinsConfig,
  BuiltinsEnvConfig,
  ExecutorConfig,
  McpHttpServerConfig,
  McpServerConfig,
  McpStdioServerConfig,
  PluginConfig,
  ToolwireConfig,
} from "./toolwire-config.js";
export { MAX_CONFIG_DEPTH, readConfigSchema, validateConfig } from "./validate-config.js";
