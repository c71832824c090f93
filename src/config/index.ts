// The config file: toolwire.config.json, validated against the shipped schema, and what it builds.
export {
  type BuildFromConfigOptions,
  type BuiltConfig,
  buildFromConfig,
  type ConfigProblem,
  type McpServerPlan,
} from "./apply-config.js";
export { findOutsideCode, type OutsideCode } from "./find-outside-code.js";
export {
  type AvailabilityConfig,
  type BuiltinsConfig,
  type BuiltinsEnvConfig,
  CONFIG_FILE_NAME,
  ConfigError,
  type ConfigErrorCode,
  type ConfigIssue,
  type ExecutorConfig,
  type LoadedConfig,
  loadConfig,
  MAX_CONFIG_BYTES,
  MAX_CONFIG_DEPTH,
  type McpHttpServerConfig,
  type McpServerConfig,
  type McpStdioServerConfig,
  type PluginConfig,
  parseConfig,
  readConfigSchema,
  type ToolwireConfig,
  validateConfig,
} from "./load-config.js";
export { type JsonErrorLocation, locateJsonError } from "./locate-json-error.js";
